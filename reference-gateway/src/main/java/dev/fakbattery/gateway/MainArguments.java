package dev.fakbattery.gateway;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.fakbattery.wire.Dialect;

/**
 * The command line of {@link Main}: {@code --upstream URL --port N [--policy FILE] [--engine vllm|sglang|llamacpp]
 * [--record-on-wire]}, each flag also as {@code --flag=value}. A bad line is an {@link IllegalArgumentException} whose message names the flag.
 *
 * @param upstream the engine's base URL, ending in {@code /v1}
 * @param port the loopback port, 0 for a free one
 * @param policy the policy file, or null for the kit convention
 * @param engine {@code vllm} (default) or {@code sglang}
 * @param help whether {@code --help} was given (nothing else is read then)
 * @param recordOnWire whether every answer carries the adjudication record, asked for or not
 * @since 0.1
 */
public record MainArguments(URI upstream, int port, Path policy, Dialect engine, boolean help, boolean recordOnWire) {

	/** The usage text printed with every command-line error. */
	public static final String USAGE = """
			usage: java -jar reference-gateway.jar --upstream URL --port N [--policy FILE] [--engine vllm|sglang|llamacpp]
			                                       [--record-on-wire]
			  --upstream URL     the engine's OpenAI base URL, e.g. http://127.0.0.1:8000/v1
			  --port N           loopback port to listen on (0 picks a free one)
			  --policy FILE      adjudication policy (YAML or JSON); default: the kit convention
			  --engine NAME      vllm (default), sglang or llamacpp: which prefix-cache reset to call after a quarantine
			  --record-on-wire   send the adjudication record on every answer; default: only to a request with
			                     the header X-Adjudication-Record: include (every record is printed on stdout)
			""";

	/** Parses {@code args}; a missing, unknown, repeated or malformed flag throws, naming it. */
	public static MainArguments parse(String... args) {
		URI upstream = null;
		Integer port = null;
		Path policy = null;
		Dialect engine = null;
		Boolean recordOnWire = null;
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
				return new MainArguments(null, 0, null, Dialect.VLLM, true, false);
			}
			else {
				value = i + 1 < args.length ? args[++i] : null;
			}
			switch (flag) {
				case "--upstream" -> upstream = once(flag, upstream, upstream(required(flag, value)));
				case "--port" -> port = once(flag, port, port(required(flag, value)));
				case "--policy" -> policy = once(flag, policy, policy(required(flag, value)));
				case "--engine" -> engine = once(flag, engine, engine(required(flag, value)));
				default -> throw new IllegalArgumentException("unknown flag [" + flag + "]");
			}
		}
		if (upstream == null) {
			throw new IllegalArgumentException("--upstream is required");
		}
		if (port == null) {
			throw new IllegalArgumentException("--port is required");
		}
		return new MainArguments(upstream, port, policy, engine == null ? Dialect.VLLM : engine, false, recordOnWire != null);
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

	private static Dialect engine(String value) {
		try {
			return Dialect.parse(value);
		}
		catch (IllegalArgumentException e) {
			throw new IllegalArgumentException("--engine [" + value + "] must be one of " + Dialect.ids(), e);
		}
	}
}
