/**
 * Escapes text for HTML content and double-quoted attributes as .NET's HttpUtility.HtmlEncode
 * does; every page escapes what it echoes with it, and ASMX's text errors are HTML-encoded too.
 */
const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char]);
}
