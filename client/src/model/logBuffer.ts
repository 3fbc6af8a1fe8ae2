/**
 * Keeps the output channel bounded: lines are appended until the channel
 * holds `max`, then it is replaced by the newest `max / 2` lines — a
 * replace per `max / 2` lines, not per line.
 */

export type LogWrite = { kind: 'append'; text: string } | { kind: 'replace'; text: string };

export class LogBuffer {
  private lines: string[] = [];

  constructor(private readonly max = 5000) {}

  /** Records `lines` and says how to update the channel: append them, or replace its whole text. */
  add(lines: readonly string[]): LogWrite | undefined {
    if (lines.length === 0) return undefined;
    this.lines.push(...lines);
    if (this.lines.length <= this.max) return { kind: 'append', text: lines.map((l) => `${l}\n`).join('') };
    this.lines = this.lines.slice(this.lines.length - Math.floor(this.max / 2));
    return { kind: 'replace', text: this.lines.map((l) => `${l}\n`).join('') };
  }

  /** The lines the channel holds. */
  get size(): number {
    return this.lines.length;
  }

  clear(): void {
    this.lines = [];
  }
}
