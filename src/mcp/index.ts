import type express from 'express';
import type { AppContext } from '../context.js';

/** Mounts the MCP surfaces (/mcp, /mcp/v2, /mcp/v3) on the app. */
export function mountMcp(_app: express.Express, _context: AppContext): void {
  // The MCP gateway lands with its own capability.
}
