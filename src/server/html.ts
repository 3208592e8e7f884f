/** Escapes text for HTML bodies and attribute values. */
export function escapeHtml(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, empty: string): string {
  if (rows.length === 0) return `<p class="empty">${escapeHtml(empty)}</p>`;
  const head = headers.map((header) => `<th>${escapeHtml(header)}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

export function badge(ok: boolean | undefined, okText = 'up', badText = 'down'): string {
  if (ok === undefined) return '<span class="badge unknown">unknown</span>';
  return ok ? `<span class="badge ok">${okText}</span>` : `<span class="badge bad">${badText}</span>`;
}
