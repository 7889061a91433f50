/**
 * The names of this machine's loopback interface, as `URL.hostname` gives them (an IPv6 address in brackets). Plain
 * http is accepted on these only (redirect URIs, configured URLs, cookies without `Secure`), and they are always allowed
 * as an MCP `Host`.
 */
export const loopbackHostnames: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Whether a host name (from a URL, or `HOST` as written, where IPv6 has no brackets) is the loopback interface. */
export function isLoopbackHost(host: string): boolean {
  return loopbackHostnames.includes(host) || host === '::1';
}
