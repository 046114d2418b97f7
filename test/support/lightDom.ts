/**
 * A light DOM for rendering a page's modules in plain Node (test/unit/l10n.test.ts): the
 * few Document and Element members src/webview/dom.ts and the pages use to build nodes, no
 * layout, no parser. Setting `innerHTML` / `outerHTML` throws: a page writes text only.
 */
type Listener = (e: unknown) => void;

export class LightNode {
  parentNode: LightNode | null = null;
  readonly childNodes: LightNode[] = [];
  constructor(
    readonly nodeType: number,
    readonly nodeName: string,
  ) {}

  get firstChild(): LightNode | null {
    return this.childNodes[0] ?? null;
  }

  get textContent(): string {
    return this.childNodes.map((c) => c.textContent).join('');
  }

  set textContent(v: string) {
    this.replaceChildren(new LightText(String(v)));
  }

  appendChild<T extends LightNode>(child: T): T {
    if (child.nodeType === 11) {
      for (const c of [...child.childNodes]) this.appendChild(c);
      return child;
    }
    child.parentNode?.removeChild(child);
    child.parentNode = this;
    this.childNodes.push(child);
    return child;
  }

  append(...nodes: Array<LightNode | string>): void {
    for (const n of nodes) this.appendChild(typeof n === 'string' ? new LightText(n) : n);
  }

  prepend(...nodes: Array<LightNode | string>): void {
    const rest = this.childNodes.splice(0);
    this.append(...nodes);
    this.childNodes.push(...rest);
  }

  removeChild<T extends LightNode>(child: T): T {
    const i = this.childNodes.indexOf(child);
    if (i >= 0) this.childNodes.splice(i, 1);
    child.parentNode = null;
    return child;
  }

  remove(): void {
    this.parentNode?.removeChild(this);
  }

  replaceChildren(...nodes: Array<LightNode | string>): void {
    for (const c of this.childNodes.splice(0)) c.parentNode = null;
    this.append(...nodes);
  }
}

export class LightText extends LightNode {
  constructor(private data: string) {
    super(3, '#text');
  }

  override get textContent(): string {
    return this.data;
  }

  override set textContent(v: string) {
    this.data = String(v);
  }
}

export class LightElement extends LightNode {
  readonly attributes = new Map<string, string>();
  readonly dataset: Record<string, string> = {};
  readonly listeners = new Map<string, Listener[]>();
  readonly style: Record<string, string> = {};
  hidden = false;
  tabIndex = -1;
  disabled = false;
  value = '';
  checked = false;
  selected = false;

  constructor(readonly tagName: string) {
    super(1, tagName.toUpperCase());
  }

  get className(): string {
    return this.attributes.get('class') ?? '';
  }

  set className(v: string) {
    this.attributes.set('class', v);
  }

  get id(): string {
    return this.attributes.get('id') ?? '';
  }

  set id(v: string) {
    this.attributes.set('id', v);
  }

  get title(): string {
    return this.attributes.get('title') ?? '';
  }

  set title(v: string) {
    this.attributes.set('title', v);
  }

  get classList(): {
    add(c: string): void;
    contains(c: string): boolean;
    toggle(c: string, on?: boolean): void;
  } {
    const list = (): string[] => this.className.split(/\s+/).filter(Boolean);
    return {
      add: (c) => (this.className = [...new Set([...list(), c])].join(' ')),
      contains: (c) => list().includes(c),
      toggle: (c, on) => {
        const has = list().includes(c);
        if (on ?? !has) this.classList.add(c);
        else
          this.className = list()
            .filter((x) => x !== c)
            .join(' ');
      },
    };
  }

  set innerHTML(_v: string) {
    throw new Error('innerHTML on a page: text only');
  }

  set outerHTML(_v: string) {
    throw new Error('outerHTML on a page: text only');
  }

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, String(value));
  }

  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }

  removeAttribute(name: string): void {
    this.attributes.delete(name);
  }

  addEventListener(type: string, l: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), l]);
  }

  /** Every element below this one, depth first. */
  descendants(): LightElement[] {
    return this.childNodes.flatMap((c) => (c instanceof LightElement ? [c, ...c.descendants()] : []));
  }

  /** The text and the attributes a person reads (title, aria-label, placeholder) below this one. */
  get readable(): string {
    const attrs = [this, ...this.descendants()].flatMap((e) =>
      ['title', 'aria-label', 'placeholder'].map((a) => e.getAttribute(a) ?? ''),
    );
    return [this.textContent, ...attrs].join('\n');
  }
}

export class LightDocument {
  readonly body = new LightElement('body');
  readonly documentElement = new LightElement('html');

  createElement(tag: string): LightElement {
    return new LightElement(tag);
  }

  createElementNS(_ns: string, tag: string): LightElement {
    return new LightElement(tag);
  }

  createTextNode(data: string): LightText {
    return new LightText(data);
  }

  createDocumentFragment(): LightNode {
    return new LightNode(11, '#document-fragment');
  }
}
