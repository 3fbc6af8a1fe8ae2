/** The `Ui` and `WorkspaceFiles` the commands use, implemented with the VS Code API. */
import { ProgressLocation, Range, Selection, TextEditorRevealType, Uri, env, window, workspace } from 'vscode';
import type { ExtensionContext, OutputChannel } from 'vscode';
import type { ReadOnlyDocuments } from '../views/readOnlyDocuments';
import { sourceName } from '../model/workspacePaths';
import { uriOfSource } from '../workspaceUris';
import type { PickItem, Ui, WorkspaceFiles } from './ui';

const NOTIFY_MS = 5000;

/** A workspace file as the sandbox names it, joined onto its workspace folder's URI; throws outside every folder. */
function toUri(source: string): Uri {
  const uri = uriOfSource(source);
  if (uri === undefined) throw new Error(`${source} is not in an open workspace folder`);
  return uri;
}

export function createUi(output: OutputChannel, documents: ReadOnlyDocuments): Ui {
  return {
    notify: (message) => void window.setStatusBarMessage(`$(check) ${message}`, NOTIFY_MS),
    info: (message) => void window.showInformationMessage(message),
    error: (message) => void window.showErrorMessage(message),
    async confirm(message, detail, action) {
      return (await window.showWarningMessage(message, { modal: true, detail }, action)) === action;
    },
    offer: (message, ...actions) => Promise.resolve(window.showInformationMessage(message, ...actions)),
    async input(options) {
      return window.showInputBox({
        title: options.title,
        prompt: options.prompt,
        value: options.value,
        validateInput: options.validate,
      });
    },
    async pick<T>(items: readonly PickItem<T>[], placeholder: string) {
      const chosen = await window.showQuickPick(
        items.map((i) => ({ label: i.label, description: i.description, detail: i.detail, item: i })),
        { placeHolder: placeholder },
      );
      return chosen?.item.value;
    },
    async pickMany<T>(items: readonly PickItem<T>[], placeholder: string) {
      const chosen = await window.showQuickPick(
        items.map((i) => ({
          label: i.label,
          description: i.description,
          detail: i.detail,
          picked: i.picked === true,
          item: i,
        })),
        { placeHolder: placeholder, canPickMany: true },
      );
      return chosen?.map((c) => c.item.value);
    },
    async showText(name, text) {
      const doc = await workspace.openTextDocument(documents.put(name, text));
      await window.showTextDocument(doc, { preview: true });
    },
    async openFile(file, line, focus) {
      const editor = await window.showTextDocument(toUri(file), { preview: true, preserveFocus: !focus });
      if (line === undefined) return;
      const position = editor.document.lineAt(Math.min(line, editor.document.lineCount - 1)).range.start;
      editor.selection = new Selection(position, position);
      editor.revealRange(new Range(position, position), TextEditorRevealType.InCenterIfOutsideViewport);
    },
    copy: (text) => Promise.resolve(env.clipboard.writeText(text)),
    showLog: () => output.show(true),
    openTerminal: ({ name, env, message }) => window.createTerminal({ name, env, message }).show(),
    progress(title) {
      let report: ((message: string) => void) | undefined;
      let last: string | undefined;
      let finish: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      void window.withProgress({ location: ProgressLocation.Notification, title, cancellable: false }, (p) => {
        report = (message) => p.report({ message });
        if (last !== undefined) report(last);
        return finished;
      });
      return {
        report: (message) => (report ? report(message) : (last = message)),
        done: () => finish(),
      };
    },
    async openStream(name, text, onClose) {
      const uri = documents.put(name, text);
      const doc = await workspace.openTextDocument(uri);
      await window.showTextDocument(doc, { preview: false });
      const closed = workspace.onDidCloseTextDocument((d) => {
        if (d.uri.toString() !== uri.toString()) return;
        closed.dispose();
        onClose();
      });
      return {
        append: (more) => {
          documents.append(uri, more);
          // Follow the end, as `kubectl logs -f` does, in editors that show it.
          for (const editor of window.visibleTextEditors) {
            if (editor.document.uri.toString() !== uri.toString()) continue;
            const lastVisible = editor.visibleRanges[editor.visibleRanges.length - 1]?.end.line ?? 0;
            if (lastVisible >= editor.document.lineCount - 3) {
              setTimeout(() => {
                const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
                editor.revealRange(new Range(end, end), TextEditorRevealType.Default);
              }, 150);
            }
          }
        },
      };
    },
  };
}

export function createWorkspaceFiles(context: ExtensionContext): WorkspaceFiles {
  return {
    inFirstFolder(relative) {
      const folders = workspace.workspaceFolders ?? [];
      if (folders.length === 0) return undefined;
      return sourceName(
        folders.map((f) => ({ name: f.name, path: f.uri.path })),
        0,
        relative,
      );
    },
    async exists(source) {
      try {
        await workspace.fs.stat(toUri(source));
        return true;
      } catch {
        return false;
      }
    },
    async readBundled(relative) {
      return new TextDecoder().decode(await workspace.fs.readFile(Uri.joinPath(context.extensionUri, relative)));
    },
    async write(source, text) {
      await workspace.fs.writeFile(toUri(source), new TextEncoder().encode(text));
    },
  };
}
