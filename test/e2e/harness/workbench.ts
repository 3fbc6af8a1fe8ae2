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
const MENU = '.context-view .monaco-menu';
const MENU_ITEM = `${MENU} .action-item`;
const DIALOG = '.monaco-dialog-box';
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
    // The tree re-renders as the sandbox changes (a new row shifts the ones below it), so a click can land on the row
    // that was there a moment before: while the row is still collapsed, click its twistie again (located anew), at
    // most once per second.
    let clickedAt = -Infinity;
    await until(
      `${label} to be expanded`,
      async () => {
        const expanded = await row.getAttribute('aria-expanded');
        if (expanded === 'true') return true;
        if (expanded === 'false' && Date.now() - clickedAt > 1000) {
          clickedAt = Date.now();
          await row.locator('.monaco-tl-twistie').click();
        }
        return undefined;
      },
      this.timeout,
    );
  }

  /**
   * Right-clicks the row labelled `label` (see `treeRow`) and chooses `item` from its context menu
   * with the keyboard, as a user can: VS Code ignores a mouse click on a menu item that comes too
   * soon after the menu opened (its mouse-up listener is attached 100 ms after the menu renders, later
   * on a loaded machine), which left the menu open. Arrow keys and Enter have no such delay: once the
   * menu has focus, Down moves the highlight until it is on `item`, and Enter runs it. Waits for the
   * menu to close.
   */
  async contextMenu(label: string, item: string, description?: RegExp): Promise<void> {
    await this.closeMenus();
    await this.dismissHover();
    const row = this.treeRow(label, description);
    await row.waitFor({ state: 'visible', timeout: this.timeout });
    await row.scrollIntoViewIfNeeded();
    await row.click({ button: 'right' });
    const menu = this.page.locator(MENU).first();
    await menu.waitFor({ state: 'visible', timeout: this.timeout });
    const labels = (await menu.locator('.action-item .action-label').allInnerTexts()).map((t) => t.trim());
    if (!labels.includes(item))
      throw new Error(`the context menu of ${label} has no "${item}"; it shows: ${labels.filter(Boolean).join(' | ')}`);
    await until(
      `the context menu of ${label} to take the keyboard focus`,
      () =>
        menu.evaluate((el) => {
          const root = el.getRootNode() as Document | ShadowRoot;
          return root.activeElement !== null && el.contains(root.activeElement) ? true : undefined;
        }),
      this.timeout,
    );
    const focused = () =>
      this.page
        .locator(`${MENU_ITEM}.focused .action-label`)
        .allInnerTexts()
        .then((t) => t[0]?.trim());
    // Each Down moves the highlight one item (separators are skipped); a full turn is enough.
    for (let moves = 0; (await focused()) !== item; moves++) {
      if (moves > labels.length) throw new Error(`could not move the menu's highlight to "${item}"`);
      const before = await focused();
      await this.page.keyboard.press('ArrowDown');
      await until(
        `the menu's highlight to move from ${before ?? 'nothing'}`,
        async () => ((await focused()) !== before ? true : undefined),
        this.timeout,
      );
    }
    await this.page.keyboard.press('Enter');
    await this.page.locator(MENU).first().waitFor({ state: 'detached', timeout: this.timeout });
  }

  /**
   * Moves the mouse off the side bar so that a row's hover (the tree's tooltip, shown after the pointer rested on a
   * row) goes away: it covers the rows under it, and a click there would land on the tooltip.
   */
  async dismissHover(): Promise<void> {
    await this.page.mouse.move(1, 1);
    const hover = this.page.locator('.context-view:not(:has(.monaco-menu)), .monaco-hover:visible').first();
    await hover.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  }

  /** Selects the row labelled `label` with a click, as a user does before pressing a key on it. */
  async selectRow(label: string, description?: RegExp): Promise<void> {
    await this.closeMenus();
    await this.dismissHover();
    const row = this.treeRow(label, description);
    await row.waitFor({ state: 'visible', timeout: this.timeout });
    await row.scrollIntoViewIfNeeded();
    await row.click();
    await until(
      `${label} to be selected`,
      async () => ((await row.getAttribute('aria-selected')) === 'true' ? true : undefined),
      this.timeout,
    );
  }

  /** Closes any open context menu (Escape), as a user would before the next action. */
  async closeMenus(): Promise<void> {
    const menu = this.page.locator(MENU).first();
    for (let i = 0; i < 3 && (await menu.isVisible()); i++) {
      await this.page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
    }
    if (await menu.isVisible()) throw new Error('a context menu stays open after Escape');
  }

  /** Opens the command palette, types `>title`, and runs the command of exactly that title. */
  async runCommand(title: string): Promise<void> {
    await this.openQuickInput('F1');
    await this.fillQuickInput(`>${title}`);
    await this.chooseQuickInputRow(title);
  }

  /** Opens `file` with Quick Open and waits for it to be the active editor of the active group. */
  async quickOpen(file: string): Promise<void> {
    // A file written just before may be missing from the first search's answer ("No matching results" for 90 s in a CI
    // run at load ~9: Quick Open keeps the answer of the search it started while it stays open). A new Quick Open runs
    // a new search, as a user would retype: up to three, each given a third of the time.
    for (let attempt = 1; ; attempt++) {
      await this.openQuickInput('Control+P');
      await this.fillQuickInput(file);
      const found = await this.chooseQuickInputRow(file, Math.ceil(this.timeout / 3)).then(
        () => true,
        (e: unknown) => {
          if (attempt === 3) throw e;
          return false;
        },
      );
      if (found) break;
      await this.page.keyboard.press('Escape');
      await this.page
        .locator(QUICK_INPUT)
        .first()
        .waitFor({ state: 'hidden', timeout: 5_000 })
        .catch(() => undefined);
    }
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
    await this.openQuickInput('Control+P');
    await this.fillQuickInput(`:${line}`);
    // Quick Open's `:` mode offers one row, "Go to line N…", once it has read the number.
    const row = this.page.locator(`${QUICK_INPUT_ROW}.focused`, { hasText: String(line) }).first();
    await row.waitFor({ state: 'visible', timeout: this.timeout });
    await this.page.keyboard.press('Enter');
    await this.page.locator(QUICK_INPUT).first().waitFor({ state: 'hidden', timeout: this.timeout });
  }

  /**
   * The input box a command shows (Scale…'s replica count), once its title reads `title`: returns the
   * value it was opened with, so that the caller can check it.
   */
  async inputBox(title: string): Promise<string> {
    const widget = this.page.locator(QUICK_INPUT).first();
    try {
      await widget.locator('.quick-input-title', { hasText: title }).first().waitFor({
        state: 'visible',
        timeout: INPUT_BOX_MS,
      });
    } catch (e) {
      throw new Error(`no input box titled "${title}" showed${await this.notificationText()}`, { cause: e });
    }
    return widget.locator('input').first().inputValue();
  }

  /** Answers the input box titled `title`: replaces its value, presses Enter, waits for it to close. */
  async answerInput(title: string, value: string): Promise<void> {
    await this.inputBox(title);
    await this.fillQuickInput(value, INPUT_BOX_MS);
    await this.page.keyboard.press('Enter');
    await this.page.locator(QUICK_INPUT).first().waitFor({ state: 'hidden', timeout: this.timeout });
  }

  /**
   * The lines the active group's editor shows, top to bottom (Monaco keeps its line elements in no
   * particular order in the page and places each by its `top`), with non-breaking spaces as spaces.
   */
  editorLines(): Promise<string[]> {
    return this.page.locator(`${ACTIVE_GROUP} .editor-instance .view-lines .view-line`).evaluateAll((lines) =>
      lines
        .map((l) => ({ top: parseFloat((l as HTMLElement).style.top) || 0, text: l.textContent ?? '' }))
        .sort((a, b) => a.top - b.top)
        .map((l) => l.text.replace(/\u00a0/g, ' ')),
    );
  }

  /**
   * Waits until the active editor's rendered lines satisfy `accept`, and returns them. The editor paints typed text
   * on an animation frame, so a read straight after the last key can still miss it (CI once read `  replicsa: `
   * before the `3` that followed it was painted).
   */
  async waitForEditorLines(what: string, accept: (lines: string[]) => boolean): Promise<string[]> {
    return until(
      what,
      async () => {
        const lines = await this.editorLines();
        return accept(lines) ? lines : undefined;
      },
      this.timeout,
      async () => (await this.editorLines()).join('⏎'),
    );
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

  /** The status bar's text (the sandbox's item reads `Sandbox 20× · 5 pods` or `Sandbox paused · 5 pods`). */
  statusBarText(): Promise<string> {
    return this.page.locator('.part.statusbar').first().innerText();
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

  /**
   * Leaves the workbench as a step expects to find it: no context menu, quick input or dialog open
   * (Escape closes each, as for a user), no notification toasts, and no editor open (a dirty one is
   * reverted, not saved).
   */
  async tidy(): Promise<void> {
    await this.closeMenus();
    const overlays = this.page.locator(`${QUICK_INPUT}:visible, ${DIALOG}:visible`).first();
    for (let i = 0; i < 5 && (await overlays.isVisible()); i++) {
      await this.page.keyboard.press('Escape');
      await overlays.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    }
    if (await overlays.isVisible()) throw new Error('a quick input or dialog stays open after Escape');
    // Closing a dirty editor asks whether to save it: the answer is no, its changes are dropped.
    await this.runCommand('View: Close All Editors');
    const dialog = this.page.locator(DIALOG).first();
    const tab = this.page.locator('.part.editor .tabs-container .tab').first();
    await until(
      'every editor to close',
      async () => {
        if (await dialog.isVisible())
          await dialog.locator('a.monaco-button', { hasText: "Don't Save" }).first().click();
        return (await tab.count()) === 0 ? true : undefined;
      },
      this.timeout,
    );
    if ((await this.notifications()).length > 0) {
      await this.runCommand('Notifications: Clear All Notifications');
      await this.page
        .locator('.notifications-toasts .notification-list-item')
        .first()
        .waitFor({ state: 'detached', timeout: this.timeout });
    }
  }

  /**
   * Opens Quick Open or the command palette with `key`; waits until its input box has the focus.
   *
   * The workbench closes a quick input that loses the focus. CI once saw the palette open and close at once, after a
   * drain's notifications came and went, and then waited 90 s for a focus that could not come. A user who sees the
   * palette close presses the key again: so does this, up to three times, and then says what held the focus instead.
   */
  private async openQuickInput(key: string): Promise<void> {
    const box = this.page.locator(QUICK_INPUT_BOX).first();
    const focused = () => box.evaluate((el) => (el === el.ownerDocument.activeElement ? true : undefined));
    const seen: string[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      await this.closeMenus();
      await this.page.keyboard.press(key);
      await box.waitFor({ state: 'visible', timeout: this.timeout });
      const ok = await until('the quick input box to take the keyboard focus', focused, 10_000).then(
        () => true,
        () => false,
      );
      if (ok) return;
      seen.push(`attempt ${attempt}: ${await this.describeFocus()}`);
      if (await box.isVisible()) await this.page.keyboard.press('Escape');
      await box.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    }
    throw new Error(`the quick input box (${key}) never kept the keyboard focus; ${seen.join('; ')}`);
  }

  /** Where the keyboard focus is, and whether the quick input is shown, for an error message. */
  private async describeFocus(): Promise<string> {
    return this.page
      .evaluate((selector) => {
        const el = document.activeElement;
        const where = el
          ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].slice(0, 3).join('.')}`
          : 'nothing';
        const widget = document.querySelector(selector);
        const shown = widget instanceof HTMLElement && widget.offsetParent !== null;
        return `focus on ${where}, quick input ${shown ? 'shown' : 'hidden'}, window ${document.hasFocus() ? 'focused' : 'not focused'}`;
      }, QUICK_INPUT)
      .catch((e: unknown) => `(could not tell: ${String(e)})`);
  }

  private async fillQuickInput(text: string, timeoutMs = this.timeout): Promise<void> {
    const box = this.page.locator(QUICK_INPUT_BOX).first();
    await box.waitFor({ state: 'visible', timeout: timeoutMs });
    await box.fill(text);
  }

  /**
   * Runs the row labelled exactly `text` with the keyboard: waits until the list has filtered to
   * it, moves the highlight onto it with Down when another row (a recently used one) is above it,
   * and presses Enter. A click could land on a row that the filtering list moves under the pointer.
   */
  private async chooseQuickInputRow(text: string, waitMs = this.timeout): Promise<void> {
    const label = (row: string) => `${QUICK_INPUT_ROW}${row} .label-name`;
    const focused = () =>
      this.page
        .locator(label('.focused'))
        .allInnerTexts()
        .then((t) => t[0]?.trim());
    const wanted = this.page.locator(label(''), { hasText: exactly(text) }).first();
    await until(
      `a quick input row labelled "${text}"`,
      async () => ((await wanted.isVisible()) ? true : undefined),
      waitMs,
      async () => (await this.page.locator(label('')).allInnerTexts()).join(' | '),
    );
    // Quick Open fills its list in stages (recent files, then search results) and may re-sort under the highlight:
    // press Enter only once the highlight has stayed on the row through a settling pause.
    const rows = async () => (await this.page.locator(label('')).allInnerTexts()).join('\n');
    for (let moves = 0; ; moves++) {
      if (moves > 20) throw new Error(`could not move the quick input's highlight to "${text}"`);
      const before = await focused();
      if (before === text) {
        const order = await rows();
        await new Promise((resolve) => setTimeout(resolve, 200));
        if ((await focused()) === text && (await rows()) === order) break;
        continue;
      }
      await this.page.keyboard.press('ArrowDown');
      await until(
        `the quick input's highlight to move from ${before ?? 'nothing'}`,
        async () => ((await focused()) !== before ? true : undefined),
        this.timeout,
      );
    }
    await this.page.keyboard.press('Enter');
    await this.page.locator(QUICK_INPUT).first().waitFor({ state: 'hidden', timeout: this.timeout });
  }
}

/** Rows as an indented outline, for error messages. */
export function formatRows(rows: readonly TreeRow[]): string {
  return `\n${rows.map((r) => `${'  '.repeat(Math.max(0, r.level - 1))}${r.label}${r.description ? `  (${r.description})` : ''}`).join('\n')}`;
}
