import type { Icon } from '@modelcontextprotocol/server';

/**
 * The icons of the MCP tools, served by the service itself at /icons/<name>.svg (nothing is
 * fetched from elsewhere), one for each kind of tool. The server's Implementation carries none:
 * the 2026-07-28 era stamps it on every result, and an address there would grow every answer.
 */

const frame = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="#1f4e79" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;

export const iconFiles: Readonly<Record<string, string>> = {
  'search.svg': frame('<circle cx="10.5" cy="10.5" r="6"/><path d="M15 15l5 5"/>'),
  'details.svg': frame('<path d="M6 3h9l4 4v14H6z"/><path d="M9 11h7M9 15h7"/>'),
  'run.svg': frame('<circle cx="12" cy="12" r="9"/><path d="M10 8l6 4-6 4z"/>'),
};

const toolIconFile: Record<string, string> = {
  search_endpoints: 'search.svg',
  get_endpoint_details_full: 'details.svg',
};

function icon(publicUrl: string, file: string): Icon {
  return { src: `${publicUrl}/icons/${file}`, mimeType: 'image/svg+xml', sizes: ['any'] };
}

/** A tool's icon: searching and reading details have their own; every tool that runs an operation shares one. */
export function toolIcons(publicUrl: string, toolName: string): Icon[] {
  return [icon(publicUrl, toolIconFile[toolName] ?? 'run.svg')];
}
