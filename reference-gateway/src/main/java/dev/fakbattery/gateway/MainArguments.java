package dev.fakbattery.gateway;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.spi.GatewayLimits;

/**
 * The command line of {@link Main}: {@code --upstream URL --port N [--policy FILE] [--engine vllm|sglang|llamacpp]
 * [--record-on-wire]} and the optional bind address, limits and {@code --log-bodies}, each flag also as
 * {@code --flag=value}. A bad line is an {@link IllegalArgumentException} whose message names the flag.
 *
 * @param upstream the engine's base URL, ending in {@code /v1}
 * @param port the port, 0 for a free one
 * @param policy the policy file, or null for the kit convention
 * @param engine {@code vllm} (default), {@code sglang} or {@code llamacpp}
 * @param help whether {@code --help} was given (nothing else is read then)
 * @param recordOnWire whether every answer carries the adjudication record, asked for or not
 * @param bind the address to listen on, loopback by default
 * @param limits the upstream timeout and the size limits, {@link ReferenceGateway#DEFAULT_LIMITS} unless given
 * @param logBodies whether {@code --log-bodies} was given
 * @param server the HTTP server in front of the handlers, {@link HttpFront#JDK} unless given
 * @since 0.1
 */
public record MainArguments(URI upstream, int port, Path policy, Dialect engine, boolean help, boolean recordOnWire,
		InetAddress bind, GatewayLimits limits, boolean logBodies, HttpFront server) {

	/** Without {@code --server}: {@link HttpFront#JDK}. */
	public MainArguments(URI upstream, int port, Path policy, Dialect engine, boolean help, boolean recordOnWire,
			InetAddress bind, GatewayLimits limits, boolean logBodies) {
		this(upstream, port, policy, engine, help, recordOnWire, bind, limits, logBodies, HttpFront.JDK);
	}

	/** The usage text printed with every command-line error. */
	public static final String USAGE = """
			usage: java -jar reference-gateway.jar --upstream URL --port N [--policy FILE] [--engine vllm|sglang|llamacpp]
			         [--record-on-wire] [--bind ADDRESS] [--upstream-timeout-ms N] [--max-body-bytes N]
			         [--max-header-bytes N] [--max-event-bytes N] [--log-bodies] [--server jdk|helidon|netty]
			  --upstream URL           the engine's OpenAI base URL, e.g. http://127.0.0.1:8000/v1
			  --port N                 port to listen on (0 picks a free one)
			  --policy FILE            adjudication policy (YAML or JSON); default: the kit convention
			  --engine NAME            vllm (default), sglang or llamacpp: which prefix-cache reset to call after a quarantine
			  --record-on-wire         send the adjudication record on every answer; default: only to a request with
			                           the header X-Adjudication-Record: include (every record is printed on stdout)
			  --bind ADDRESS           address to listen on; default 127.0.0.1 (loopback only)
			  --upstream-timeout-ms N  give up on a silent upstream after N ms: 504, or an error frame mid-stream (300000)
			  --max-body-bytes N       larger request bodies get 413 (8388608)
			  --max-header-bytes N     larger request header sections get 431 (32768)
			  --max-event-bytes N      longest upstream SSE line or event, largest whole answer (4194304)
			  --log-bodies             write every chat request body to stderr (debugging only; bodies hold secrets)
			  --server NAME            the HTTP server in front of the handlers: jdk (default), helidon or netty
			""";

	/** Parses {@code args}; a missing, unknown, repeated or malformed flag throws, naming it. */
	public static MainArguments parse(String... args) {
		URI upstream = null;
		Integer port = null;
		Path policy = null;
		Dialect engine = null;
		Boolean recordOnWire = null;
		InetAddress bind = null;
		GatewayLimits limits = ReferenceGateway.DEFAULT_LIMITS;
		Long timeout = null;
		Long body = null;
		Long header = null;
		Long event = null;
		boolean logBodies = false;
		HttpFront server = null;
		for (int i = 0; i < args.length; i++) {
			String flag = args[i];
			String value;
			int equals = flag.indexOf('=');
			if (flag.equals("--record-on-wire")) {
				recordOnWire = once(flag, recordOnWire, Boolean.TRUE);
				continue;
			}
			if (flag.startsWith("--") && equals > 0) {
				value = flag.substring(equals + 1);
				flag = flag.substring(0, equals);
			}
			else if (flag.equals("--help") || flag.equals("-h")) {
				return new MainArguments(null, 0, null, Dialect.VLLM, true, false, InetAddress.getLoopbackAddress(), limits, false);
			}
			else if (flag.equals("--log-bodies")) {
				logBodies = once(flag, logBodies ? true : null, true);
				continue;
			}
			else {
				value = i + 1 < args.length ? args[++i] : null;
			}
			switch (flag) {
				case "--upstream" -> upstream = once(flag, upstream, upstream(required(flag, value)));
				case "--port" -> port = once(flag, port, port(required(flag, value)));
				case "--policy" -> policy = once(flag, policy, policy(required(flag, value)));
				case "--engine" -> engine = once(flag, engine, engine(required(flag, value)));
				case "--bind" -> bind = once(flag, bind, bind(required(flag, value)));
				case "--upstream-timeout-ms" -> timeout = once(flag, timeout, positive(flag, required(flag, value), Integer.MAX_VALUE));
				case "--max-body-bytes" -> body = once(flag, body, positive(flag, required(flag, value), Long.MAX_VALUE));
				case "--max-header-bytes" -> header = once(flag, header, positive(flag, required(flag, value), Integer.MAX_VALUE));
				case "--server" -> server = once(flag, server, server(required(flag, value)));
				case "--max-event-bytes" -> event = once(flag, event, positive(flag, required(flag, value), Integer.MAX_VALUE - 8));
				default -> throw new IllegalArgumentException("unknown flag [" + flag + "]");
			}
		}
		if (upstream == null) {
			throw new IllegalArgumentException("--upstream is required");
		}
		if (port == null) {
			throw new IllegalArgumentException("--port is required");
		}
		limits = new GatewayLimits(timeout == null ? limits.upstreamTimeout() : Duration.ofMillis(timeout),
				body == null ? limits.maxBodyBytes() : body, header == null ? limits.maxHeaderBytes() : header.intValue(),
				event == null ? limits.maxEventBytes() : event.intValue());
		return new MainArguments(upstream, port, policy, engine == null ? Dialect.VLLM : engine, false, recordOnWire != null,
				bind == null ? InetAddress.getLoopbackAddress() : bind, limits, logBodies, server == null ? HttpFront.JDK : server);
	}

	private static String required(String flag, String value) {
		if (value == null || value.isEmpty() || value.startsWith("--")) {
			throw new IllegalArgumentException(flag + " needs a value");
		}
		return value;
	}

	private static <T> T once(String flag, T current, T value) {
		if (current != null) {
			throw new IllegalArgumentException(flag + " given twice");
		}
		return value;
	}

	private static URI upstream(String value) {
		URI uri;
		try {
			uri = URI.create(value);
		}
		catch (IllegalArgumentException e) {
			throw new IllegalArgumentException("--upstream [" + value + "] is not a URL", e);
		}
		if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
			throw new IllegalArgumentException("--upstream [" + value + "] must be an http(s) URL with a host");
		}
		return uri;
	}

	private static Integer port(String value) {
		try {
			int port = Integer.parseInt(value);
			if (port >= 0 && port <= 65535) {
				return port;
			}
		}
		catch (NumberFormatException e) {
			// reported below
		}
		throw new IllegalArgumentException("--port [" + value + "] must be a number 0-65535");
	}

	private static Path policy(String value) {
		Path path = Path.of(value);
		if (!Files.isRegularFile(path)) {
			throw new IllegalArgumentException("--policy [" + value + "] is not a readable file");
		}
		return path;
	}

	private static Long positive(String flag, String value, long max) {
		try {
			long number = Long.parseLong(value);
			if (number >= 1 && number <= max) {
				return number;
			}
		}
		catch (NumberFormatException e) {
			// reported below
		}
		throw new IllegalArgumentException(flag + " [" + value + "] must be a whole number 1-" + max);
	}

	private static InetAddress bind(String value) {
		if (!value.matches("[0-9.]+|[0-9a-fA-F:]*:[0-9a-fA-F:.]*")) {
			throw new IllegalArgumentException("--bind [" + value + "] must be an IP address, e.g. 127.0.0.1");
		}
		try {
			return InetAddress.getByName(value);
		}
		catch (UnknownHostException e) {
			throw new IllegalArgumentException("--bind [" + value + "] must be an IP address, e.g. 127.0.0.1", e);
		}
	}

	private static HttpFront server(String value) {
		try {
			return HttpFront.parse(value);
		}
		catch (IllegalArgumentException e) {
			throw new IllegalArgumentException("--server [" + value + "] must be one of " + HttpFront.names(), e);
		}
	}

	private static Dialect engine(String value) {
		try {
			return Dialect.parse(value);
		}
		catch (IllegalArgumentException e) {
			throw new IllegalArgumentException("--engine [" + value + "] must be one of " + Dialect.ids(), e);
		}
	}
}
