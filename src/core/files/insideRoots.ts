/**
 * Whether a file lies inside one of some folders, decided on real paths: links and `..` are
 * resolved first, so a link inside a folder to a file outside it is outside. The one check
 * for a path an agent or a command argument names (VS Code: the workspace folders; the MCP
 * server: the folders it was started for). Pure Node: no `vscode` import.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The real path of `file` when it lies inside the real path of one of `roots`, else
 * undefined. Read the path returned, not the one given, so the check and the read name the
 * same file.
 */
export function realPathInside(roots: readonly string[], file: string): string | undefined {
  const target = realish(file);
  const inside = roots.some((root) => {
    const rel = path.relative(realish(root), target);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  });
  return inside ? target : undefined;
}

/** The real path of `p`, or of its nearest existing ancestor joined with the rest. */
function realish(p: string): string {
  const abs = path.resolve(p);
  let dir = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(dir), ...rest.reverse());
    } catch {
      const up = path.dirname(dir);
      if (up === dir) return abs;
      rest.push(path.basename(dir));
      dir = up;
    }
  }
}
