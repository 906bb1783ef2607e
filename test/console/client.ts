/** A cookie-keeping client of the console over plain HTTP (no browser), for session and form tests. */
export class ConsoleClient {
  private cookies = new Map<string, string>();

  constructor(private readonly base: string) {}

  private remember(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async get(
    path: string,
  ): Promise<{ status: number; location: string | null; text: string; headers: Headers }> {
    const res = await fetch(this.base + path, { redirect: 'manual', headers: this.header() });
    this.remember(res);
    return {
      status: res.status,
      location: res.headers.get('location'),
      text: await res.text(),
      headers: res.headers,
    };
  }

  async post(path: string, form: Record<string, string>) {
    const res = await fetch(this.base + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...this.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });
    this.remember(res);
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  }

  private header(): Record<string, string> {
    const all = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return all ? { cookie: all } : {};
  }

  /** The CSRF token of the first form on a page. */
  static csrfOf(page: string): string {
    const m = /name="_csrf" value="([^"]+)"/.exec(page);
    if (!m) throw new Error('no CSRF field on the page');
    return m[1];
  }

  /** Fills in and posts the sign-in form as a person would (its page first, for the CSRF token): the answer. */
  async submitSignIn(key: string, next = '/') {
    const form = await this.get(`/sign-in?next=${encodeURIComponent(next)}`);
    return this.post('/sign-in', { _csrf: ConsoleClient.csrfOf(form.text), key, next });
  }

  /** Signs in: where the console sends the person next (null when refused). */
  async signIn(key: string, next = '/'): Promise<string | null> {
    return (await this.submitSignIn(key, next)).location;
  }
}
