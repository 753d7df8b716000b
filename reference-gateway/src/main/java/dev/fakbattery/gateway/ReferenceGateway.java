package dev.fakbattery.gateway;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

import dev.fakbattery.gateway.policy.Policy;
import dev.fakbattery.gateway.policy.PolicyLoader;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayLimits;
import dev.fakbattery.wire.spi.GatewayUnderTest;

/**
 * The reference gateway: an embedded adjudicating OpenAI-compatible proxy in front of vLLM or SGLang, on loopback.
 * The JDK {@link HttpServer} (or, with {@link Builder#front}, Helidon's WebServer or Netty behind the same
 * {@code com.sun.net.httpserver} handlers) serves clients on virtual threads and the JDK HTTP client reaches the
 * engine, so a stream is a plain blocking loop per request. See the module README for the wire behaviour.
 *
 * <h2>Routes</h2>
 * {@code POST /v1/chat/completions} (adjudicated, stream and non-stream), {@code GET /v1/models} and the engines'
 * identity endpoints {@code /version}, {@code /get_server_info}, {@code /props} (passed through with the engine's
 * {@code Server} header),
 * {@code GET /healthz}, {@code GET /metrics} (Prometheus text).
 *
 * <h2>Limits</h2>
 * {@link #DEFAULT_LIMITS} unless configured: a silent upstream is given up after the upstream timeout (504, or an
 * error frame then {@code [DONE]} once the stream started), a request body over the limit gets 413, a header section
 * over the limit 431, and an upstream line, event or whole answer over the limit ends the answer with a clear error.
 * It binds only the address it is given (loopback by default) and logs no request body unless asked.
 *
 * <h2>Example</h2>
 * <pre>
 * try (ReferenceGateway gateway = ReferenceGateway.builder()
 *         .upstream(URI.create("http://127.0.0.1:8000/v1"))
 *         .policy(PolicyLoader.kitConvention())
 *         .engine(Dialect.VLLM)
 *         .build()
 *         .start()) {
 *     URI base = gateway.baseUrl();   // http://127.0.0.1:PORT/v1
 * }
 * </pre>
 *
 * @since 0.1
 */
public final class ReferenceGateway implements GatewayUnderTest {

	static {
		// read once, when the JDK server's configuration class loads: without it Nagle holds back small SSE writes
		System.setProperty("sun.net.httpserver.nodelay", "true");
		// also read once: past 200 idle keep-alive connections (the JDK default) the server closes them, and a client
		// that sends its next request on one just closed sees a reset; hundreds of agents keep more than 200
		if (System.getProperty("sun.net.httpserver.maxIdleConnections") == null) {
			System.setProperty("sun.net.httpserver.maxIdleConnections", "4096");
		}
	}

	private static final int BACKLOG = 1024;

	private static final Consumer<String> RECORD_LOGGER = line -> System.getLogger("dev.fakbattery.gateway.adjudication")
			.log(System.Logger.Level.DEBUG, line);
	/**
	 * The documented defaults: upstream timeout 300 s, request body 8 MiB, request headers 32 KiB, upstream line,
	 * event or whole answer 4 MiB.
	 */
	public static final GatewayLimits DEFAULT_LIMITS = new GatewayLimits(Duration.ofSeconds(300), 8L * 1024 * 1024,
			32 * 1024, 4 * 1024 * 1024);

	private final Upstream upstream;

	private final Policy policy;

	private final Dialect engine;

	private final int requestedPort;

	private final boolean recordOnWire;

	private final Consumer<String> recordLog;
	private final InetAddress bindAddress;

	private final GatewayLimits limits;

	private final PrintStream bodyLog;

	private final HttpFront front;

	private final GatewayMetrics metrics = new GatewayMetrics();

	private UpstreamWatchdog watchdog;

	private HttpServer server;

	private ExecutorService executor;

	private ReferenceGateway(Builder builder) {
		this.engine = builder.engine;
		this.upstream = new Upstream(builder.upstream, builder.engine, builder.connectTimeout, builder.limits.upstreamTimeout());
		this.policy = builder.policy;
		this.requestedPort = builder.port;
		this.recordOnWire = builder.recordOnWire;
		this.recordLog = builder.recordLog;
		this.bindAddress = builder.bindAddress;
		this.limits = builder.limits;
		this.bodyLog = builder.bodyLog;
		this.front = builder.front;
	}

	/** Starts a gateway configuration; {@code upstream} is required. */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Binds the configured address (127.0.0.1 by default) on the configured port and starts serving.
	 *
	 * @throws UncheckedIOException when the port cannot be bound
	 * @throws IllegalStateException when already started
	 */
	public synchronized ReferenceGateway start() {
		if (server != null) {
			throw new IllegalStateException("reference gateway already started on port " + port());
		}
		try {
			server = front.create(new InetSocketAddress(bindAddress, requestedPort), BACKLOG, limits);
		}
		catch (IOException e) {
			upstream.close();
			throw new UncheckedIOException("reference gateway cannot listen on " + bindAddress.getHostAddress() + ":"
					+ requestedPort + ": " + e.getMessage(), e);
		}
		executor = Executors.newVirtualThreadPerTaskExecutor();
		server.setExecutor(executor);
		watchdog = new UpstreamWatchdog(limits.upstreamTimeout());
		RequestLimits requestLimits = new RequestLimits(limits.maxBodyBytes(), limits.maxHeaderBytes());
		Safeguards guards = new Safeguards(limits, requestLimits, watchdog, RequestLog.to(bodyLog));
		route(ChatCompletionsHandler.PATH, new ChatCompletionsHandler(upstream, policy, engine, metrics, recordOnWire, recordLog, guards),
				requestLimits);
		route("/v1/models", InfoHandlers.models(upstream, metrics), requestLimits);
		for (String path : InfoHandlers.IDENTITY_PATHS) {
			route(path, InfoHandlers.identity(path, upstream, metrics), requestLimits);
		}
		route("/healthz", InfoHandlers.health(engine, upstream), requestLimits);
		route("/metrics", InfoHandlers.metrics(metrics), requestLimits);
		route("/", InfoHandlers.notFound(), requestLimits);
		server.start();
		return this;
	}

	private void route(String path, HttpHandler handler, RequestLimits requestLimits) {
		HttpContext context = server.createContext(path, handler);
		context.getFilters().add(requestLimits);
	}

	/** The port bound; only after {@link #start()}. */
	public int port() {
		if (server == null) {
			throw new IllegalStateException("reference gateway not started");
		}
		return server.getAddress().getPort();
	}

	/** {@code http://ADDRESS:PORT/v1} ({@code http://127.0.0.1:PORT/v1} by default), a client's OpenAI base URL. */
	@Override
	public URI baseUrl() {
		String host = bindAddress.getHostAddress();
		return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port() + "/v1");
	}

	/** The limits this gateway holds to; {@link #DEFAULT_LIMITS} unless configured. */
	@Override
	public Optional<GatewayLimits> limits() {
		return Optional.of(limits);
	}

	/** The engine's base URL the gateway forwards to, ending in {@code /v1}. */
	public URI upstream() {
		return upstream.base();
	}

	/** The HTTP server in front of the handlers. */
	public HttpFront front() {
		return front;
	}

	/** The engine dialect: which cache reset follows a quarantine, how a message without calls looks. */
	public Dialect engine() {
		return engine;
	}

	/** Live counters (also on {@code GET /metrics}). */
	public GatewayMetrics metrics() {
		return metrics;
	}

	/** Tool results quarantined so far. */
	public long quarantines() {
		return metrics.quarantines();
	}

	/** Successful engine prefix-cache resets so far. */
	public long cacheResets() {
		return metrics.cacheResets();
	}

	@Override
	public String description() {
		return front == HttpFront.JDK ? "embedded reference gateway" : "embedded reference gateway (server " + front.id() + ")";
	}

	/**
	 * True: asked with {@link GatewayUnderTest#RECORD_HEADER}{@code : include} (or always, with
	 * {@link Builder#recordOnWire(boolean)}), non-stream responses carry {@code "adjudication"} and streams end with
	 * {@code event: adjudication}.
	 */
	@Override
	public boolean declaresAdjudicationRecord() {
		return true;
	}

	/** Stops serving at once: open streams are cut and their upstream requests cancelled. */
	@Override
	public synchronized void close() {
		if (server != null) {
			server.stop(0);
			executor.shutdownNow();
			watchdog.close();
		}
		upstream.close();
	}

	/** Configuration of a {@link ReferenceGateway}. */
	public static final class Builder {

		private URI upstream;

		private Policy policy;

		private Dialect engine = Dialect.VLLM;

		private int port;

		private Duration connectTimeout = Duration.ofSeconds(10);

		private boolean recordOnWire;

		private Consumer<String> recordLog = RECORD_LOGGER;
		private InetAddress bindAddress = InetAddress.getLoopbackAddress();

		private GatewayLimits limits = DEFAULT_LIMITS;

		private PrintStream bodyLog;

		private HttpFront front = HttpFront.configured();

		private Builder() {
		}

		/**
		 * The HTTP server in front of the handlers; by default the one {@value HttpFront#SERVER_PROPERTY} names, else
		 * {@link HttpFront#JDK}.
		 */
		public Builder front(HttpFront front) {
			this.front = Objects.requireNonNull(front, "front");
			return this;
		}

		/**
		 * Whether every answer carries the adjudication record, asked for or not; default false: only a request with
		 * {@link GatewayUnderTest#RECORD_HEADER}{@code : include} gets it, so plain OpenAI clients see plain answers.
		 */
		public Builder recordOnWire(boolean recordOnWire) {
			this.recordOnWire = recordOnWire;
			return this;
		}

		/**
		 * Where each non-empty adjudication record goes, one line {@code adjudication {"request_id":...,"calls":...}};
		 * default the {@link System.Logger} {@code dev.fakbattery.gateway.adjudication} at DEBUG ({@link Main} prints
		 * the lines on stdout, the gateway process's log).
		 */
		public Builder recordLog(Consumer<String> recordLog) {
			this.recordLog = Objects.requireNonNull(recordLog, "recordLog");
			return this;
		}

		/** The address to listen on; the loopback address (127.0.0.1) by default. Nothing else answers. */
		public Builder bind(InetAddress address) {
			this.bindAddress = Objects.requireNonNull(address, "address");
			return this;
		}

		/** Upstream timeout, body, header and event limits; {@link #DEFAULT_LIMITS} by default. */
		public Builder limits(GatewayLimits limits) {
			this.limits = Objects.requireNonNull(limits, "limits");
			return this;
		}

		/** Writes every chat request body to {@code out} (debugging only: bodies hold prompts and secrets); none by default. */
		public Builder logBodies(PrintStream out) {
			this.bodyLog = Objects.requireNonNull(out, "out");
			return this;
		}

		/** The engine's OpenAI base URL, for example {@code http://127.0.0.1:8000/v1}. Required. */
		public Builder upstream(URI upstream) {
			this.upstream = Objects.requireNonNull(upstream, "upstream");
			return this;
		}

		/** The adjudication policy; default {@link PolicyLoader#kitConvention()}. */
		public Builder policy(Policy policy) {
			this.policy = Objects.requireNonNull(policy, "policy");
			return this;
		}

		/** The engine's dialect, {@link Dialect#VLLM} by default: the cache-reset endpoint and the call-less message shape. */
		public Builder engine(Dialect engine) {
			this.engine = Objects.requireNonNull(engine, "engine");
			return this;
		}

		/** The loopback port; 0 (default) picks a free one. */
		public Builder port(int port) {
			if (port < 0 || port > 65535) {
				throw new IllegalArgumentException("port [" + port + "] must be 0-65535");
			}
			this.port = port;
			return this;
		}

		/** How long connecting to the engine may take; default 10 s. Waiting for it is bounded by the upstream timeout. */
		public Builder connectTimeout(Duration connectTimeout) {
			this.connectTimeout = Objects.requireNonNull(connectTimeout, "connectTimeout");
			return this;
		}

		/** @throws IllegalStateException when no upstream was given */
		public ReferenceGateway build() {
			if (upstream == null) {
				throw new IllegalStateException("reference gateway needs an upstream URL (builder().upstream(...))");
			}
			if (policy == null) {
				policy = PolicyLoader.kitConvention();
			}
			return new ReferenceGateway(this);
		}
	}
}
