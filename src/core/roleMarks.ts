// Production and read-only universes marked where their documents show: a badge and the theme's colour on editor tabs
// and in the Explorer (a file decoration), and a status bar item while the active editor is one of them. Which
// universe a document belongs to is the area's to say (the wiring hands `universeOf` over).
import vscode = require('vscode');
import type { Connections } from './connections';
import { t } from './text';
import { PRODUCTION_COLOR } from './tree/connectionNodes';
import { describeUniverse, isReadOnly, roleOf, type UniverseAddress } from './universe';

/** The universe a document of an area belongs to; undefined for any other document. */
export type UniverseOf = (uri: vscode.Uri) => UniverseAddress | undefined;

export class RoleMarks implements vscode.FileDecorationProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeFileDecorations = this.changed.event;
  /** Shown while the active editor holds a document of a production universe. */
  readonly item = vscode.window.createStatusBarItem('universeExplorer.production', vscode.StatusBarAlignment.Left, 49);
  /** Whether the item is shown (VS Code's item does not say). */
  shown = false;
  private readonly disposables: vscode.Disposable[];

  constructor(
    connections: Connections,
    private readonly universeOf: UniverseOf,
  ) {
    this.item.name = t`Universe Explorer: production`;
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    const redraw = () => {
      this.changed.fire(undefined);
      this.render();
    };
    this.disposables = [
      this.item,
      this.changed,
      vscode.window.registerFileDecorationProvider(this),
      connections.onDidChange(redraw),
      vscode.window.onDidChangeActiveTextEditor(() => this.render()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('universeExplorer.readOnlyUniverses')) redraw();
      }),
    ];
    this.render();
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const u = this.universeOf(uri);
    if (!u) return undefined;
    const production = roleOf(u) === 'production';
    const readOnly = isReadOnly(u);
    if (!production && !readOnly) return undefined;
    const where = describeUniverse(u);
    const tooltip =
      production && readOnly
        ? t`Production, read-only: ${where}`
        : production
          ? t`Production: ${where}; writes ask first`
          : t`Read-only: ${where}`;
    return new vscode.FileDecoration(
      production ? t`P` : t`RO`,
      tooltip,
      production ? new vscode.ThemeColor(PRODUCTION_COLOR) : undefined,
    );
  }

  /** The production universe of the active editor's document, if it has one. */
  activeProduction(): UniverseAddress | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const u = uri && this.universeOf(uri);
    return u && roleOf(u) === 'production' ? u : undefined;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private render(): void {
    const u = this.activeProduction();
    this.shown = !!u;
    if (!u) return this.item.hide();
    const readOnly = isReadOnly(u);
    const where = describeUniverse(u);
    this.item.text = `$(warning) ${readOnly ? t`Production (read-only): ${where}` : t`Production: ${where}`}`;
    this.item.tooltip = readOnly
      ? t`This entry belongs to the production universe ${where}, which is read-only.`
      : t`This entry belongs to the production universe ${where}: saving it asks first.`;
    this.item.accessibilityInformation = { label: this.item.text.replace(/\$\([^)]*\)\s*/g, '') };
    this.item.show();
  }
}
