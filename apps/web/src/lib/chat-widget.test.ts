import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** DECISIONS R8: the chat widget loads only when configured, and is prefilled (000 §1). */
describe('chat widget', () => {
  beforeEach(() => {
    vi.resetModules();
    document.head.innerHTML = '';
    document.body.innerHTML = '';
    delete window.chatwootSDK;
    delete window.$chatwoot;
  });
  afterEach(() => vi.restoreAllMocks());

  function setConfig(config: unknown) {
    const meta = document.createElement('meta');
    meta.name = 'dp-config';
    meta.content = JSON.stringify(config);
    document.head.append(meta);
  }

  it('loads nothing when no chat is configured', async () => {
    setConfig({ chat: null });
    const { chatConfigured, showChat } = await import('./chat-widget.ts');
    expect(chatConfigured()).toBe(false);
    showChat({ identifier: 'u', email: 'e', name: 'n', phone: 'p', dealership: 'd' });
    expect(document.querySelectorAll('script')).toHaveLength(0);
  });

  it('loads the configured widget once and prefills dealership, e-mail, name and phone', async () => {
    setConfig({
      chat: { kind: 'chatwoot', baseUrl: 'https://chat.example.com', websiteToken: 'tok12345' },
    });
    const { showChat } = await import('./chat-widget.ts');
    const user = {
      identifier: 'active@example.com',
      email: 'active@example.com',
      name: 'Morgan Reyes',
      phone: '3135550142',
      dealership: 'Reyes Auto Group',
    };
    showChat(user);
    showChat(user);
    const scripts = document.querySelectorAll('script');
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.src).toBe('https://chat.example.com/packs/js/sdk.js');

    const run = vi.fn();
    window.chatwootSDK = { run };
    scripts[0]!.dispatchEvent(new Event('load'));
    expect(run).toHaveBeenCalledWith({
      websiteToken: 'tok12345',
      baseUrl: 'https://chat.example.com',
    });

    const api = {
      setUser: vi.fn(),
      setCustomAttributes: vi.fn(),
      reset: vi.fn(),
      toggleBubbleVisibility: vi.fn(),
    };
    window.$chatwoot = api;
    window.dispatchEvent(new Event('chatwoot:ready'));
    await vi.waitFor(() => expect(api.toggleBubbleVisibility).toHaveBeenCalledWith('show'));
    expect(api.setUser).toHaveBeenCalledWith('active@example.com', {
      email: 'active@example.com',
      name: 'Morgan Reyes',
      phone_number: '3135550142',
    });
    expect(api.setCustomAttributes).toHaveBeenCalledWith({ dealership: 'Reyes Auto Group' });
  });
});
