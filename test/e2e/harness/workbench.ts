/**
 * The VS Code 1.100 workbench as a user sees it, through the selectors of
 * shared/reference/vscode-host.md: the activity bar, the side bar's tree, context
 * menus, Quick Open, the command palette, the editor, the Problems panel and webviews.
 * Every action waits for what it needs with a deadline.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { until } from './wait';

/** One visible row of the side bar's tree. */
export interface TreeRow {
  label: string;
  description: string;
  /** 1 for roots. */
  level: number;
  expanded: boolean | undefined;
}

const TREE_ROW = '.part.sidebar .pane-body .monaco-list-row[role="treeitem"]';
const QUICK_INPUT = '.quick-input-widget';
const QUICK_INPUT_BOX = `${QUICK_INPUT} input`;
const QUICK_INPUT_ROW = `${QUICK_INPUT} .quick-input-list .monaco-list-row`;
const ACTIVE_GROUP = '.part.editor .editor-group-container.active';
const MENU_ITEM = '.context-view .action-item .action-label';
/** How long a command's input box may take to show after its menu item was chosen. */
const INPUT_BOX_MS = 15_000;

function exactly(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

export class Workbench {
  /** Default deadline of one wait, in ms. */
  timeout = 30_000;
  private shots = 0;

  constructor(
    readonly page: Page,
    private readonly artifactsDir: string,
  ) {
    mkdirSync(artifactsDir, { recursive: true });
  }

  /** Waits for the workbench, its activity bar and status bar. */
  async ready(timeoutMs = 60_000): Promise<void> {
    for (const selector of ['.monaco-workbench', '.part.activitybar', '.part.statusbar']) {
      await this.page.locator(selector).first().waitFor({ state: 'visible', timeout: timeoutMs });
    }
  }

  /** Saves a full-page screenshot as `NN-name.png` in the artifacts folder; returns its path. */
  async screenshot(name: string): Promise<string> {
    const file = join(this.artifactsDir, `${String(++this.shots).padStart(2, '0')}-${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /** Clicks the activity-bar item of a view container, unless its view is already showing. */
  async openViewContainer(title: string): Promise<void> {
    const item = this.page.locator(`.part.activitybar .action-item a.action-label[aria-label^="${title}"]`).first();
    await item.waitFor({ state: 'visible', timeout: this.timeout });
    const title_ = this.page.locator('.part.sidebar .composite.title h2').first();
    const showing =
      (await title_.isVisible()) && (await title_.innerText()).toLowerCase().includes(title.toLowerCase());
    if (!showing) await item.click();
    await until(
      `the side bar to show ${title}`,
      async () => ((await title_.innerText()).toLowerCase().includes(title.toLowerCase()) ? true : undefined),
      this.timeout,
    );
  }

  /** The tree rows the side bar shows now (only visible ones: the list is virtual). */
  treeRows(): Promise<TreeRow[]> {
    return this.page.locator(TREE_ROW).evaluateAll((rows) =>
      rows
        .filter((r) => (r as HTMLElement).offsetParent !== null)
        .map((r) => ({
          label: r.querySelector('.label-name')?.textContent?.trim() ?? '',
          description: r.querySelector('.label-description')?.textContent?.trim() ?? '',
          level: Number(r.getAttribute('aria-level') ?? '1'),
          expanded: r.hasAttribute('aria-expanded') ? r.getAttribute('aria-expanded') === 'true' : undefined,
        })),
    );
  }

  /** Waits until `check` finds what it wants in the tree; the error shows the rows last seen. */
  waitForTree<T>(what: string, check: (rows: TreeRow[]) => T | undefined, timeoutMs = this.timeout): Promise<T> {
    return until(
      what,
      async () => check(await this.treeRows()),
      timeoutMs,
      async () => `${formatRows(await this.treeRows())}${await this.notificationText()}`,
    );
  }

  /** The first visible tree row labelled exactly `label` (and, if given, whose description matches). */
  treeRow(label: string, description?: RegExp): Locator {
    let rows = this.page
      .locator(TREE_ROW)
      .filter({ has: this.page.locator('.label-name', { hasText: exactly(label) }) });
    if (description) rows = rows.filter({ has: this.page.locator('.label-description', { hasText: description }) });
    return rows.first();
  }

  /**
   * Expands the row labelled `label` (see `treeRow`) by clicking its twistie, as a
   * user would, unless it is expanded already; waits until it is.
   */
  async expand(label: string, description?: RegExp): Promise<void> {
    const row = this.treeRow(label, description);
    await row.waitFor({ state: 'visible', timeout: this.timeout });
    if ((await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
    await until(
      `${label} to be expanded`,
      async () => ((await row.getAttribute('aria-expanded')) === 'true' ? true : undefined),
      this.timeout,
    );
  }

  /** Right-clicks the row labelled `label` (see `treeRow`) and chooses `item` from its context menu. */
  async contextMenu(label: string, item: string, description?: RegExp): Promise<void> {
    const row = this.treeRow(label, description);
    await row.waitFor({ state: 'visible', timeout: this.timeout });
    await row.click({ button: 'right' });
    const entry = this.page.locator(MENU_ITEM, { hasText: exactly(item) }).first();
    await entry.waitFor({ state: 'visible', timeout: this.timeout });
    await entry.click();
    await this.page.locator('.context-view .monaco-menu').first().waitFor({ state: 'hidden', timeout: this.timeout });
  }

  /** Opens the command palette, types `>title`, and runs the row of that title. */
  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press('F1');
    await this.fillQuickInput(`>${title}`);
    await this.chooseQuickInputRow(title);
  }

  /** Opens `file` with Quick Open and waits for it to be the active editor of the active group. */
  async quickOpen(file: string): Promise<void> {
    await this.page.keyboard.press('Control+P');
    await this.fillQuickInput(file);
    await this.chooseQuickInputRow(file);
    await this.page
      .locator(`${ACTIVE_GROUP} .tabs-container .tab.active`, { hasText: file })
      .first()
      .waitFor({ state: 'visible', timeout: this.timeout });
    await this.page
      .locator(`${ACTIVE_GROUP} .editor-instance .monaco-editor.focused`)
      .first()
      .waitFor({ state: 'visible', timeout: this.timeout });
  }

  /** Waits until the active group's editor has (`true`) or has no (`false`) unsaved changes. */
  async waitDirty(dirty: boolean): Promise<void> {
    await this.page
      .locator(`${ACTIVE_GROUP} .tabs-container .tab.active.dirty`)
      .first()
      .waitFor({ state: dirty ? 'visible' : 'detached', timeout: this.timeout });
  }

  /** Moves the cursor of the active editor to the start of `line` (1-based), through Quick Open's `:line`. */
  async goToLine(line: number): Promise<void> {
    await this.page.keyboard.press('Control+P');
    await this.fillQuickInput(`:${line}`);
    await this.page.keyboard.press('Enter');
    await this.page.locator(QUICK_INPUT).first().waitFor({ state: 'hidden', timeout: this.timeout });
  }

  /** Answers an input box (Scale…'s replica count): replaces its value and presses Enter. */
  async answerInput(value: string): Promise<void> {
    try {
      await this.fillQuickInput(value, INPUT_BOX_MS);
    } catch (e) {
      throw new Error(`no input box showed${await this.notificationText()}`, { cause: e });
    }
    await this.page.keyboard.press('Enter');
    await this.page.locator(QUICK_INPUT).first().waitFor({ state: 'hidden', timeout: this.timeout });
  }

  /** The text the active group's editor shows (its rendered lines). */
  editorText(): Promise<string> {
    return this.page.locator(`${ACTIVE_GROUP} .editor-instance .view-lines`).first().innerText();
  }

  /** Shows the Problems panel and returns its rows' text. */
  async problems(): Promise<string[]> {
    const panel = this.page.locator('.markers-panel').first();
    if (!(await panel.isVisible())) await this.page.keyboard.press('Control+Shift+M');
    await panel.waitFor({ state: 'visible', timeout: this.timeout });
    return panel.locator('.monaco-list-row').allInnerTexts();
  }

  /** The content frame of the visible webview (`iframe.webview.ready` → `#active-frame`). */
  webview(): FrameLocator {
    return this.page.locator('iframe.webview.ready:visible').first().contentFrame().frameLocator('iframe#active-frame');
  }

  /** The notification toasts' messages. */
  notifications(): Promise<string[]> {
    return this.page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
  }

  /** The notifications shown, as text for an error message ('' when none). */
  private async notificationText(): Promise<string> {
    const shown = await this.notifications().catch(() => []);
    return shown.length > 0 ? `\nnotifications: ${shown.join(' | ')}` : '';
  }

  private async fillQuickInput(text: string, timeoutMs = this.timeout): Promise<void> {
    const box = this.page.locator(QUICK_INPUT_BOX).first();
    await box.waitFor({ state: 'visible', timeout: timeoutMs });
    await box.fill(text);
  }

  /** Clicks the row showing `text` (Enter would take whichever row is highlighted, maybe a recently used one). */
  private async chooseQuickInputRow(text: string): Promise<void> {
    const row = this.page.locator(QUICK_INPUT_ROW, { hasText: text }).first();
    await row.waitFor({ state: 'visible', timeout: this.timeout });
    await row.click();
    await this.page.locator(QUICK_INPUT).first().waitFor({ state: 'hidden', timeout: this.timeout });
  }
}

/** Rows as an indented outline, for error messages. */
export function formatRows(rows: readonly TreeRow[]): string {
  return `\n${rows.map((r) => `${'  '.repeat(Math.max(0, r.level - 1))}${r.label}${r.description ? `  (${r.description})` : ''}`).join('\n')}`;
}
