// The player page's static markup: headings, buttons, the tables' heads. Words are escaped; no value from the
// service is here (they reach the page by message and are set as text).
import { t } from '../core/text';
import { escapeHtml as e } from '../core/webviewPage';

const button = (id: string, text: string, secondary = true): string =>
  `<button type="button" id="${id}"${secondary ? ' class="secondary"' : ''}>${e(text)}</button>`;

const heads = (names: string[]): string => names.map((n) => `<th scope="col">${e(n)}</th>`).join('');

export function playerMarkup(): string {
  return `<header>
  <h1 id="heading"></h1>
  <p id="where" class="where"></p>
</header>
<div class="toolbar" role="toolbar" aria-label="${e(t`Actions`)}">
  ${button('refresh', t`Refresh`, false)}
  ${button('restore', t`Restore This Player to a Time…`)}
  ${button('erase', t`Erase Player Data…`)}
  <span class="spacer"></span>
  <span id="busy" class="muted" role="status" aria-live="polite"></span>
</div>
<section aria-labelledby="entriesHeading">
  <h2 id="entriesHeading">${e(t`Data store entries`)}</h2>
  <p id="coverage" class="muted"></p>
  <p id="entriesProblem" class="problem" role="alert" hidden></p>
  <div class="toolbar">
    ${button('checkLive', t`Check Live`)}
    ${button('buildIndex', t`Build Query Index…`)}
    <span id="checked" class="muted" role="status" aria-live="polite"></span>
  </div>
  <div class="table">
  <table id="entries" role="grid" tabindex="0" aria-labelledby="entriesHeading" aria-describedby="entriesHint">
    <thead><tr role="row">${heads([t`Store`, t`Scope`, t`Key`, t`How tied`, t`Updated`, t`Version`, t`Live`])}</tr></thead>
    <tbody id="entryRows"></tbody>
  </table>
  </div>
  <p id="entriesHint" class="muted">${e(t`Up and Down move between entries; Enter (or a double-click) opens the live entry.`)}</p>
</section>
<section aria-labelledby="orderedHeading">
  <h2 id="orderedHeading">${e(t`Ordered data stores`)}</h2>
  <p id="orderedStatus" class="muted" role="status"></p>
  <p id="orderedProblem" class="problem" role="alert" hidden></p>
  <div class="table">
  <table aria-labelledby="orderedHeading">
    <thead><tr>${heads([t`Store`, t`Scope`, t`Value`])}</tr></thead>
    <tbody id="orderedRows"></tbody>
  </table>
  </div>
</section>
<section aria-labelledby="bansHeading">
  <h2 id="bansHeading">${e(t`Bans`)}</h2>
  <p class="muted">${e(t`In the universe, and at each place shown under its User Restrictions (Show Place… adds one).`)}</p>
  <p id="bansProblem" class="problem" role="alert" hidden></p>
  <div class="table">
  <table aria-labelledby="bansHeading">
    <thead><tr>${heads([t`Where`, t`State`, t`Duration`, t`Ends`, t`Display reason`, t`Private reason`, t`Alt accounts`, t`Action`])}</tr></thead>
    <tbody id="banRows"></tbody>
  </table>
  </div>
</section>
<section aria-labelledby="logHeading">
  <h2 id="logHeading">${e(t`Restriction log`)}</h2>
  <p id="logProblem" class="problem" role="alert" hidden></p>
  <p id="logStatus" class="muted" role="status"></p>
  <div class="table">
  <table aria-labelledby="logHeading">
    <thead><tr>${heads([t`Time`, t`Place`, t`Moderator`, t`State`, t`Duration`, t`Display reason`, t`Private reason`, t`Alt accounts`])}</tr></thead>
    <tbody id="logRows"></tbody>
  </table>
  </div>
</section>`;
}
