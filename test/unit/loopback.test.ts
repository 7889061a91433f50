import { describe, expect, it } from 'vitest';
import { isLoopbackHost, loopbackHostnames } from '../../src/loopback.js';

describe('the loopback host names', () => {
  it('are the names URL gives the loopback interface', () => {
    for (const url of ['http://localhost:3000/', 'http://127.0.0.1/', 'http://[::1]:8080/x'])
      expect(loopbackHostnames).toContain(new URL(url).hostname);
  });

  it('recognise an IPv6 loopback written with or without brackets, and nothing else', () => {
    expect(isLoopbackHost('::1')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    for (const host of ['0.0.0.0', '::', 'localhost.example.com', '127.0.0.2', 'example.com', ''])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});
