// The Query Index row of each universe: what the index covers and how old it is. It never opens DuckDB itself
// unless the index file is there (so a universe never indexed loads none of it).
import fs = require('node:fs');
import vscode = require('vscode');
import { t } from '../core/text';
import { localTime } from '../core/time';
import type { UniverseNode } from '../core/tree/connectionNodes';
import type { TreeNode } from '../core/tree/node';
import type { UniverseAddress } from '../core/universe';
import { coverageTooltip, describeCoverage, type QueryIndexes } from './indexes';

export class QueryIndexNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly indexes: QueryIndexes,
    readonly parent: UniverseNode,
  ) {
    this.id = `${parent.id}/queryIndex`;
  }

  get ref(): UniverseAddress {
    return { connectionId: this.parent.connectionId, universeId: this.parent.universe.id };
  }

  item(): vscode.TreeItem {
    const parts = this.indexes.known(this.ref);
    if (parts === undefined && fs.existsSync(this.indexes.index(this.ref).file)) {
      void this.indexes.reload(this.ref).catch(() => undefined);
    }
    const item = new vscode.TreeItem(t`Query Index`, vscode.TreeItemCollapsibleState.None);
    const coverage = parts && describeCoverage(parts);
    const bulk = this.indexes.writtenSince(this.ref);
    const stale = bulk.length ? t`written in bulk since: ${bulk.map(([store]) => store).join(', ')}` : undefined;
    item.description = [coverage ?? t`not built`, stale].filter(Boolean).join(' · ');
    const noFeed = t`Refresh Query Index reads the stores again: the service has no change feed, so the index shows them as of its build, with the entries opened, saved or restored one by one in this editor since; writes made elsewhere are not in it.`;
    const bulkLines = bulk.map(
      ([store, at]) =>
        t`${store} was written in bulk (a restore, undo, copy or import run, or the store deleted or undeleted) at ${localTime(at)}, after the index read it: refresh it to query what it holds now.`,
    );
    item.tooltip = coverage
      ? [coverageTooltip(parts!), ...bulkLines, '', noFeed].join('\n')
      : t`Build Query Index… copies stores of this universe into a local index to query them with SQL.`;
    item.iconPath = new vscode.ThemeIcon('search');
    item.contextValue = coverage ? 'queryIndex.built' : 'queryIndex';
    return item;
  }
}
