/** What an upload's progress listener is told. */
type ProgressListener = (event: { lengthComputable: boolean; loaded: number; total: number }) => void;

/**
 * A stand-in for the browser's XMLHttpRequest, which the client uploads files with (for their
 * progress): the test decides the progress and the answer. `FakeUpload.last` is the latest one
 * sent, `FakeUpload.made` every one since `install`.
 */
export class FakeUpload {
  static last: FakeUpload | undefined;
  static made: FakeUpload[] = [];
  /** Makes every XMLHttpRequest from now on a FakeUpload. */
  static install() {
    FakeUpload.made = [];
    FakeUpload.last = undefined;
    globalThis.XMLHttpRequest = FakeUpload as unknown as typeof XMLHttpRequest;
  }
  listeners: Record<string, (() => void)[]> = {};
  progressListeners: ProgressListener[] = [];
  upload = { addEventListener: (_type: string, fn: ProgressListener) => this.progressListeners.push(fn) };
  status = 0;
  response: unknown = null;
  withCredentials = false;
  responseType = '';
  method = '';
  url = '';
  body?: FormData;
  aborted = false;
  constructor() {
    FakeUpload.last = this;
    FakeUpload.made.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  addEventListener(type: string, fn: () => void) {
    (this.listeners[type] ??= []).push(fn);
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.listeners.abort?.forEach((fn) => fn());
  }
  progress(fraction: number) {
    this.progressListeners.forEach((fn) => fn({ lengthComputable: true, loaded: fraction * 1000, total: 1000 }));
  }
  answer(status: number, response: unknown) {
    this.status = status;
    this.response = response;
    this.listeners.load?.forEach((fn) => fn());
  }
}
