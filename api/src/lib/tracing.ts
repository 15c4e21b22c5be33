import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Attributes, type Context as OtelContext, type Span } from '@opentelemetry/api';
import type { Logger } from './logger';
import type { TraceContext } from './trace-context';
import { API_VERSION } from './version';

/*
 * OpenTelemetry tracing, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set. The SDK (provider, batching, the OTLP/HTTP
 * exporter) is imported only then, so a default start loads none of it; the spans made here go through the
 * @opentelemetry/api facade and cost one boolean test while tracing is off.
 */

export { SpanKind };
export const TRACER_NAME = 'site-api';

let active = false;
let users = 0;
let shutdown: (() => Promise<void>) | undefined;
let flush: (() => Promise<void>) | undefined;

/** True while an exporter is installed (some app of this process started tracing). */
export const tracingActive = () => active;

const tracer = () => trace.getTracer(TRACER_NAME, API_VERSION);

/**
 * Runs `fn` inside a span named `name` (its child spans and the database's nest under it); the span ends when `fn`
 * settles, with an error status and the exception when it throws. Without tracing, `fn` runs with no span.
 */
export async function withSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes },
  fn: (span: Span | undefined) => Promise<T> | T,
): Promise<T> {
  if (!active) return fn(undefined);
  return tracer().startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Starts a span the caller ends (an HTTP request's server span), child of `parent`. Undefined without tracing. */
export function startSpan(name: string, options: { kind: SpanKind; attributes?: Attributes }, parent: OtelContext = context.active()): Span | undefined {
  if (!active) return undefined;
  return tracer().startSpan(name, options, parent);
}

/** Runs `fn` with `span` as the active span (its children nest under it). */
export function withActiveSpan<T>(span: Span, fn: () => T): T {
  return context.with(trace.setSpan(context.active(), span), fn);
}

/**
 * The context a request's server span starts in: a child of the trusted proxy's span when it sent a valid
 * `traceparent` (parsed by lib/trace-context.ts, as the request id is checked), else a new trace.
 */
export function remoteParentContext(parent: TraceContext | undefined): OtelContext {
  if (!parent) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: parent.traceId,
    spanId: parent.spanId,
    traceFlags: parent.flags === '01' ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  });
}

/** Runs `fn` with `parent` as its remote parent span (work queued by a request, sent later): its spans join that trace. */
export function withRemoteParent<T>(parent: TraceContext | undefined, fn: () => T): T {
  if (!active || !parent) return fn();
  return context.with(remoteParentContext(parent), fn);
}

/** The W3C position of an OpenTelemetry span (its trace, its id, its sampled flag). */
export function traceOfSpan(span: Span): TraceContext | undefined {
  const sc = span.spanContext();
  if (!trace.isSpanContextValid(sc)) return undefined;
  return { traceId: sc.traceId, spanId: sc.spanId, flags: sc.traceFlags & TraceFlags.SAMPLED ? '01' : '00' };
}

export { SpanStatusCode };

export interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; spans go to `<endpoint>/v1/traces` as OTLP/HTTP JSON. */
  endpoint: string;
  serviceName: string;
  logger?: Logger;
}

/**
 * Installs the tracer provider for the process (once, however many apps ask: the last one to stop removes it).
 * Returns what stops it: flushes the spans still batched, then uninstalls.
 */
export async function startTracing(options: TracingOptions): Promise<{ flush(): Promise<void>; stop(): Promise<void> }> {
  users += 1;
  if (!active) {
    // Imported here, not at the top: a process without tracing never loads the SDK (esbuild leaves these imports to
    // run time, as every package is external to the bundle).
    const [{ BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { AsyncLocalStorageContextManager }, { resourceFromAttributes }, { W3CTraceContextPropagator }] =
      await Promise.all([
        import('@opentelemetry/sdk-trace-base'),
        import('@opentelemetry/exporter-trace-otlp-http'),
        import('@opentelemetry/context-async-hooks'),
        import('@opentelemetry/resources'),
        import('@opentelemetry/core'),
      ]);
    let base = options.endpoint;
    while (base.endsWith('/')) base = base.slice(0, -1);
    const exporter = new OTLPTraceExporter({ url: `${base}/v1/traces` });
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': options.serviceName, 'service.version': API_VERSION }),
      spanProcessors: [new BatchSpanProcessor(exporter)],
    });
    const contextManager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(contextManager);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(provider);
    active = true;
    flush = () => provider.forceFlush();
    shutdown = async () => {
      active = false;
      await provider.shutdown().catch((error: unknown) => options.logger?.warn({ err: error }, 'the trace exporter did not shut down cleanly'));
      trace.disable();
      context.disable();
      propagation.disable();
    };
    options.logger?.info({ endpoint: options.endpoint }, 'tracing: spans are exported over OTLP/HTTP');
  }
  let stopped = false;
  return {
    flush: () => flush?.() ?? Promise.resolve(),
    async stop() {
      if (stopped) return;
      stopped = true;
      users -= 1;
      if (users === 0 && shutdown) {
        const done = shutdown;
        shutdown = undefined;
        await done();
      }
    },
  };
}
