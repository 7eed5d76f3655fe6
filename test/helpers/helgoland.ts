/**
 * 52°North's web client, `@helgoland/core` (pinned in package.json), run headless in Node: its own connector
 * classes in an Angular environment injector, with Angular's `HttpClient` over `fetch`. No DOM, no browser,
 * no Zone.js. Every request the client makes is recorded with the answer it got (`exchanges`), so a failing
 * test can say exactly what the client asked and what it was told.
 *
 * What is not the client's own code, and why:
 * - `ɵINJECTOR_SCOPE: 'root'`: in a browser app, `BrowserModule` (from `@angular/platform-browser`, which needs
 *   a DOM) marks the application injector as the root injector, so that `providedIn: 'root'` services
 *   (`HelgolandServicesConnector`, the connectors, Angular's `PendingTasks`) are made there. Here the same one
 *   provider does it.
 * - `provideZonelessChangeDetection()`: Angular's own zoneless mode (no Zone.js patching Node's globals); it
 *   provides the no-op `NgZone` that the fetch backend asks for.
 * - `provideHttpClient(withFetch(), ...)` instead of `HelgolandCoreModule`'s `provideHttpClient()`, whose
 *   default backend is `XMLHttpRequest` (a browser API). The module's other providers are either listed below
 *   as they are (`HttpService`, `InternalIdHandler`) or browser-bound (`LocalStorage` reads `Storage`,
 *   `NotifierService` writes to the DOM) and unused by the connectors.
 * - `SettingsService`: an app provides its own (52°North's viewer loads `settings.json`); here a plain
 *   instance holding `datasetApis`, with a `connector` name when the connector is pinned.
 * - `DatasetApiInterface` is `SplittedDataDatasetApiInterface`, the implementation 52°North's viewer uses: it
 *   splits a data request of more than a year into calendar-year requests.
 * - `acceptLanguage`: a browser adds `Accept-Language` to every request by itself; Node's fetch does not, so
 *   when asked, one interceptor adds it where the browser would (requests without one).
 * Nothing is stubbed in the connectors, the API interface, the HTTP client or ngx-translate.
 */
import './helgoland-node.ts'; // before @helgoland/core: see there
import '@angular/compiler'; // JIT-links the library's partially compiled declarations (ɵɵngDeclare*)
import { createEnvironmentInjector, importProvidersFrom, Injector, provideZonelessChangeDetection, ɵINJECTOR_SCOPE, type EnvironmentInjector } from '@angular/core';
import { HttpResponse, provideHttpClient, withFetch, withInterceptors, type HttpInterceptorFn } from '@angular/common/http';
import { TranslateModule, TranslateService } from '@ngx-translate/core';
import {
  DatasetApiInterface,
  DatasetApiV1ConnectorProvider,
  DatasetApiV2ConnectorProvider,
  DatasetApiV3ConnectorProvider,
  DatasetStaConnectorProvider,
  HelgolandServicesConnector,
  type Settings,
  HttpService,
  InternalIdHandler,
  SettingsService,
  SplittedDataDatasetApiInterface,
} from '@helgoland/core';
import { tap } from 'rxjs';

/** One request the client made and what it got (body as text, or the error's). */
export interface Exchange {
  method: string;
  url: string;
  /** By lower-cased name. */
  headers: Record<string, string>;
  body: unknown;
  status: number;
  answer: string;
}

export interface Helgoland {
  injector: EnvironmentInjector;
  /** What 52°North's apps call: picks a connector for a URL (by `canHandle`, or the one the settings name). */
  services: HelgolandServicesConnector;
  /** The v1 API interface the v1 connector uses (`SplittedDataDatasetApiInterface`). */
  api: DatasetApiInterface;
  translate: TranslateService;
  exchanges: Exchange[];
  /** The exchanges as lines `METHOD url -> status answer…`, for assertion messages. */
  log(from?: number): string;
  close(): void;
}

/** An app's settings, as 52°North's viewer subclasses `SettingsService` with what it loaded. */
class AppSettings extends SettingsService<Settings> {
  constructor(settings: Settings) {
    super();
    this.setSettings(settings);
  }
}

/**
 * A client for the v1 API at `apiUrl` (ending in `/`, as the client joins paths to it). `connector`: the
 * connector name the settings pin for that URL (as `datasetApis[].connector`); without it the client tries
 * its connectors in the order 52°North's viewer registers them (v1, v2, v3, SensorThings) and takes the first
 * whose `canHandle` says yes. `language`: the ngx-translate language the app switched to (the client then sends
 * `locale`); `acceptLanguage`: the header a browser would send.
 */
export function helgoland(apiUrl: string, opts: { connector?: string; language?: string; acceptLanguage?: string } = {}): Helgoland {
  const exchanges: Exchange[] = [];
  const browser: HttpInterceptorFn = (req, next) => next(opts.acceptLanguage && !req.headers.has('Accept-Language') ? req.clone({ setHeaders: { 'Accept-Language': opts.acceptLanguage } }) : req);
  const record: HttpInterceptorFn = (req, next) => {
    const ex: Exchange = { method: req.method, url: req.urlWithParams, headers: Object.fromEntries(req.headers.keys().map((k) => [k.toLowerCase(), req.headers.getAll(k)!.join(', ')])), body: req.body, status: 0, answer: '' };
    exchanges.push(ex);
    return next(req).pipe(
      tap({
        next: (ev) => {
          if (ev instanceof HttpResponse) {
            ex.status = ev.status;
            ex.answer = typeof ev.body === 'string' ? ev.body : JSON.stringify(ev.body);
          }
        },
        error: (err: { status?: number; error?: unknown; message?: string }) => {
          ex.status = err.status ?? -1;
          ex.answer = typeof err.error === 'string' ? err.error : err.error != null ? JSON.stringify(err.error) : String(err.message);
        },
      }),
    );
  };
  const settings = new AppSettings({ datasetApis: [{ name: 'snapcat', url: apiUrl, ...(opts.connector ? { connector: opts.connector } : {}) }] });
  const injector = createEnvironmentInjector(
    [
      { provide: ɵINJECTOR_SCOPE, useValue: 'root' },
      provideZonelessChangeDetection(),
      provideHttpClient(withFetch(), withInterceptors([browser, record])),
      importProvidersFrom(TranslateModule.forRoot()),
      HttpService,
      InternalIdHandler,
      { provide: SettingsService, useValue: settings },
      { provide: DatasetApiInterface, useClass: SplittedDataDatasetApiInterface },
      DatasetApiV1ConnectorProvider,
      DatasetApiV2ConnectorProvider,
      DatasetApiV3ConnectorProvider,
      DatasetStaConnectorProvider,
    ],
    // The top of every Angular injector chain: a browser app's platform injector sits in between, empty here.
    Injector.NULL as EnvironmentInjector,
    'helgoland',
  );
  const translate = injector.get(TranslateService);
  if (opts.language) translate.use(opts.language);
  return {
    injector,
    services: injector.get(HelgolandServicesConnector),
    api: injector.get(DatasetApiInterface),
    translate,
    exchanges,
    log: (from = 0) => exchanges.slice(from).map((e) => `${e.method} ${e.url}${e.body != null ? ` ${JSON.stringify(e.body)}` : ''} -> ${e.status} ${e.answer.slice(0, 400)}`).join('\n'),
    close: () => injector.destroy(),
  };
}
