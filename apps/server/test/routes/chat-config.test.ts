import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { pageContentSecurityPolicy } from '../../src/plugins/security-headers.ts';
import { buildTestApp } from '../support/helper.ts';

/** The live chat (DECISIONS R8, docs/decisions/014): configured by two variables, or none at all. */
describe('live chat configuration', () => {
  it('is off by default: no chat in the page, nothing extra in the CSP', async () => {
    const config = loadConfig({});
    expect(config.chat).toBeNull();
    const csp = pageContentSecurityPolicy(config, 'n0nce');
    expect(csp).toContain("style-src 'self';");
    expect(csp).toContain("frame-src 'none'");
    const t = await buildTestApp();
    try {
      const page = await t.app.inject({ method: 'GET', url: '/home' });
      const meta = /<meta name="dp-config" content="([^"]+)">/.exec(page.body)?.[1] ?? '';
      const publicConfig = JSON.parse(meta.replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
      expect(publicConfig.chat).toBeNull();
      expect(publicConfig.businessTimeZone).toBe('America/New_York');
    } finally {
      await t.close();
    }
  });

  it('needs both variables', () => {
    expect(() => loadConfig({ CHATWOOT_BASE_URL: 'https://chat.example.com' })).toThrow(
      /CHATWOOT_WEBSITE_TOKEN/,
    );
    expect(() => loadConfig({ CHATWOOT_WEBSITE_TOKEN: 'abcDEF123456' })).toThrow(ConfigError);
  });

  it('when configured, is in the page and its origin alone is allowed by the CSP', async () => {
    const env = {
      CHATWOOT_BASE_URL: 'https://chat.example.com/',
      CHATWOOT_WEBSITE_TOKEN: 'abcDEF123456',
    };
    const config = loadConfig(env);
    expect(config.chat).toEqual({
      kind: 'chatwoot',
      baseUrl: 'https://chat.example.com',
      websiteToken: 'abcDEF123456',
    });
    const csp = pageContentSecurityPolicy(config, 'n0nce');
    expect(csp).toMatch(/script-src [^;]*https:\/\/chat\.example\.com/);
    expect(csp).toMatch(/frame-src https:\/\/chat\.example\.com/);
    expect(csp).toMatch(/connect-src [^;]*wss:\/\/chat\.example\.com/);
    const t = await buildTestApp({ env });
    try {
      const page = await t.app.inject({ method: 'GET', url: '/account/profile' });
      expect(page.body).toContain('chat.example.com');
      expect(page.headers['content-security-policy']).toContain('https://chat.example.com');
    } finally {
      await t.close();
    }
  });
});
