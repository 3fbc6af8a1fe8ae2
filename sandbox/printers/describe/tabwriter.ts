/**
 * Go's text/tabwriter as kubectl describe configures it
 * (`tabwriter.NewWriter(out, 0, 8, 2, ' ', 0)`: minwidth 0, padding 2, spaces):
 * cells end at a tab; a column's width is the widest of its cells over a
 * block of consecutive lines that all have a cell in that column, plus the
 * padding; the text after a line's last tab is not part of any column. So a
 * line without a tab ends every block, exactly as in kubectl's output.
 */

const PADDING = 2;

/** Widths in characters (runes, as Go counts them). */
function width(text: string): number {
  return [...text].length;
}

/** Aligns `text` (lines of tab-terminated cells) as Go's tabwriter does. */
export function tabwriter(text: string): string {
  const lines = text.split('\n').map((l) => l.split('\t'));
  const out: string[] = [];
  const widths: number[] = [];
  const writeLines = (from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      const cells = lines[i];
      let line = '';
      cells.forEach((cell, j) => {
        line += j < widths.length && j < cells.length - 1 ? cell.padEnd(cell.length + widths[j] - width(cell)) : cell;
      });
      out.push(line);
    }
  };
  // upstream: text/tabwriter (*Writer).format
  const format = (line0: number, line1: number): void => {
    const column = widths.length;
    for (let current = line0; current < line1; current++) {
      if (column >= lines[current].length - 1) continue;
      writeLines(line0, current);
      line0 = current;
      let w = 0;
      for (; current < line1; current++) {
        const cells = lines[current];
        if (column >= cells.length - 1) break;
        w = Math.max(w, width(cells[column]) + PADDING);
      }
      widths.push(w);
      format(line0, current);
      widths.pop();
      line0 = current;
      current--;
    }
    writeLines(line0, line1);
  };
  format(0, lines.length);
  return out.join('\n');
}
