import * as vscode from 'vscode';
import type { Log } from './log';

export type KeySource = 'none' | 'stored' | 'session' | 'env' | 'demo';

const SECRET_ID = 'odin.apiKey';
/** Documented for automation and the demo; read, never written anywhere. */
export const API_KEY_ENV = 'ODIN_API_KEY';

/**
 * The API key lives in SecretStorage only. When the OS keyring is unavailable (Linux
 * without a secret service), the user may choose a session-only key kept in memory; we
 * never fall back to settings or any other plaintext store.
 *
 * `onDidChange` can fire twice, for no change, or because another window changed the
 * secret: it is treated as "re-read and refresh", idempotently.
 */
export class KeyStore implements vscode.Disposable {
  private stored: string | undefined;
  private session: string | undefined;
  private demo: string | undefined;
  private keyringError: string | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;
  private lastSnapshot = '';

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: Log,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.subscription = secrets.onDidChange((e) => {
      if (e.key === SECRET_ID) void this.refresh();
    });
  }

  /** Re-reads the stored secret; fires onDidChange only when the effective key changed. */
  async refresh(): Promise<void> {
    try {
      this.stored = normalise(await this.secrets.get(SECRET_ID));
      this.keyringError = undefined;
    } catch (err) {
      this.keyringError = describe(err);
      // l10n: English, for the log
      this.log.warn(`Reading the API key from the system keyring failed: ${this.keyringError}`);
    }
    this.fireIfChanged();
  }

  /** The key to send, by precedence: demo > stored > session-only > environment. */
  get(): string | undefined {
    return this.demo ?? this.stored ?? this.session ?? this.envKey();
  }

  source(): KeySource {
    if (this.demo) return 'demo';
    if (this.stored) return 'stored';
    if (this.session) return 'session';
    if (this.envKey()) return 'env';
    return 'none';
  }

  /** The last keyring failure, if the keyring is unusable. */
  keyringProblem(): string | undefined {
    return this.keyringError;
  }

  /** Stores the key in SecretStorage; throws KeyringUnavailableError if the keyring fails. */
  async store(key: string): Promise<void> {
    const value = normalise(key);
    if (!value) throw new Error(vscode.l10n.t('The API key is empty.'));
    try {
      await this.secrets.store(SECRET_ID, value);
    } catch (err) {
      this.keyringError = describe(err);
      throw new KeyringUnavailableError(this.keyringError);
    }
    this.stored = value;
    this.session = undefined;
    this.fireIfChanged();
  }

  /** Keeps the key in memory for this window only (no keyring available). */
  useForSession(key: string): void {
    this.session = normalise(key);
    this.fireIfChanged();
  }

  /** Demo mode: the embedded emulator's key, in memory only. */
  setDemoKey(key: string | undefined): void {
    this.demo = normalise(key);
    this.fireIfChanged();
  }

  async clear(): Promise<void> {
    this.session = undefined;
    this.stored = undefined;
    try {
      await this.secrets.delete(SECRET_ID);
    } catch (err) {
      this.keyringError = describe(err);
      // l10n: English, for the log
      this.log.warn(`Deleting the API key from the system keyring failed: ${this.keyringError}`);
    }
    this.fireIfChanged();
  }

  private envKey(): string | undefined {
    return normalise(this.env[API_KEY_ENV]);
  }

  private fireIfChanged(): void {
    const key = this.get();
    // Compare a snapshot of (source, key) without keeping a second copy of the key around.
    const snapshot = `${this.source()}:${key ? key.length + ':' + fingerprint(key) : ''}`;
    if (snapshot === this.lastSnapshot) return;
    this.lastSnapshot = snapshot;
    this.changed.fire();
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

export class KeyringUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(vscode.l10n.t('The system keyring is not available ({0}).', reason));
    this.name = 'KeyringUnavailableError';
  }
}

function normalise(key: string | undefined): string | undefined {
  const trimmed = key?.trim();
  return trimmed ? trimmed : undefined;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A cheap non-cryptographic fingerprint, only to notice that the key changed. */
function fingerprint(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
