package dev.fakbattery.core;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;

import dev.fakbattery.wire.SecretGuard;

import org.apiguardian.api.API;

/**
 * The request headers a run sends the gateway under test, and only it: {@code gateway.headers} ({@code Name: value} per
 * line) and each {@code gateway.header.NAME=value}; what a real gateway needs to route a request (Portkey's
 * {@code x-portkey-provider}, a key in {@code Authorization}). A value may carry {@value #API_KEY} for the key of
 * {@code api.key.env}, so a key is never written into a command line or a file, and {@value #UPSTREAM} for the URL of the
 * engine the gateway is in front of; the values of credential headers
 * ({@link #credential}) are guarded like the API key ({@link #guard()}), and the harness names a header, never its value.
 *
 * @since 0.10
 */
@API(status = API.Status.INTERNAL, since = "0.10")
public final class GatewayHeaders {

	/**
	 * One request header per name under this prefix: {@value}{@code NAME=value}
	 * ({@code -Dgateway.header.x-portkey-provider=openai}), added to those of {@code gateway.headers}.
	 */
	public static final String PREFIX = "gateway.header.";

	/** The placeholder in a header value for the API key of {@code api.key.env}: {@value}. */
	public static final String API_KEY = "{api.key}";

	/** RFC 9110's token: the characters a field name is made of. */
	private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

	/** The placeholder in a header value for the URL of the engine the gateway is in front of: {@value}. */
	public static final String UPSTREAM = "{upstream}";

	/** Headers the JDK's HTTP client sets itself and refuses from a caller, and the body's own framing. */
	private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade",
			"transfer-encoding", "content-type");

	/**
	 * Names whose value is a credential: whole ({@code Authorization}, {@code Cookie}) or by one of their dash or underscore
	 * separated words ({@code x-api-key}, {@code x-auth-token}; not {@code x-portkey-provider}).
	 */
	private static final Pattern CREDENTIAL = Pattern
			.compile("authorization|proxy-authorization|cookie|(.*[-_])?(key|apikey|token|secret|auth|password|credential)([-_].*)?");

	private static final GatewayHeaders NONE = new GatewayHeaders(Map.of(), SecretGuard.none());

	private final Map<String, String> values;

	private final SecretGuard guard;

	private GatewayHeaders(Map<String, String> values, SecretGuard guard) {
		this.values = values;
		this.guard = guard;
	}

	/** No header. */
	public static GatewayHeaders none() {
		return NONE;
	}

	/**
	 * The headers {@code config} names, {@value #API_KEY} replaced by the key {@code env} gives the variable
	 * {@code api.key.env} names.
	 *
	 * @throws ConfigurationException naming the parameter, the value's problem and the fix: a line that is not
	 *         {@code Name: value}, a name that is no token or that the client sets itself, a value with a line break, a
	 *         {@value #API_KEY} without a key
	 */
	public static GatewayHeaders of(HarnessConfig config, Function<String, String> env) {
		Map<String, String> raw = new LinkedHashMap<>();
		config.string(HarnessConstants.GATEWAY_HEADERS).ifPresent(lines -> {
			for (String line : lines.split("\\R")) {
				if (line.isBlank()) {
					continue;
				}
				int colon = line.indexOf(':');
				if (colon <= 0) {
					throw new ConfigurationException(HarnessConstants.GATEWAY_HEADERS + ": [" + line.strip()
							+ "] is not a header; give one `Name: value` per line (or -D" + PREFIX
							+ "NAME=value)");
				}
				raw.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
			}
		});
		config.prefixed(PREFIX).forEach(raw::put);
		if (raw.isEmpty()) {
			return NONE;
		}
		Map<String, String> values = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		SecretGuard guard = SecretGuard.none();
		for (Map.Entry<String, String> header : raw.entrySet()) {
			String name = header.getKey();
			String parameter = PREFIX + name;
			if (!TOKEN.matcher(name).matches()) {
				throw new ConfigurationException(parameter + ": [" + name + "] is not a header name (letters, digits and "
						+ "!#$%&'*+.^_`|~- only); fix the name");
			}
			if (RESTRICTED.contains(name.toLowerCase(Locale.ROOT))) {
				throw new ConfigurationException(parameter + ": the kit's clients set " + name + " themselves; leave it out");
			}
			String value = header.getValue();
			if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
				throw new ConfigurationException(parameter + ": a header value holds no line break; give it on one line");
			}
			if (value.contains(API_KEY)) {
				String variable = config.string(HarnessConstants.API_KEY_ENV)
						.orElseThrow(() -> new ConfigurationException(parameter + " uses " + API_KEY + " but "
								+ HarnessConstants.API_KEY_ENV + " is not set; set -D" + HarnessConstants.API_KEY_ENV
								+ "=NAME of the environment variable that holds the key"));
				String key = env.apply(variable);
				if (key == null || key.isBlank()) {
					throw new ConfigurationException(parameter + " uses " + API_KEY + " but the environment variable " + variable
							+ " (" + HarnessConstants.API_KEY_ENV + ") is unset or blank; export it");
				}
				value = value.replace(API_KEY, key);
			}
			if (credential(name)) {
				guard = guard.and(SecretGuard.of(parameter, "the value of the request header " + name + " (" + parameter + ")", value));
			}
			values.put(name, value);
		}
		return new GatewayHeaders(Map.copyOf(values), guard);
	}

	/** Whether a header named {@code name} carries a credential: its value is guarded like the API key. */
	public static boolean credential(String name) {
		return CREDENTIAL.matcher(name.toLowerCase(Locale.ROOT)).matches();
	}

	/** Each header by name, its value resolved: for a client to send, never to write down. */
	public Map<String, String> values() {
		return values;
	}

	/**
	 * {@link #values()}, {@value #UPSTREAM} in a value replaced by {@code upstream}, the URL (ending in {@code /v1}) of the
	 * engine the gateway is in front of: Portkey's {@code x-portkey-custom-host: {upstream}}.
	 */
	public Map<String, String> values(URI upstream) {
		Map<String, String> resolved = new LinkedHashMap<>();
		values.forEach((name, value) -> resolved.put(name, value.replace(UPSTREAM, upstream.toString())));
		return resolved;
	}

	/** The names, sorted: what a file or a console line may say of the headers. */
	public List<String> names() {
		return values.keySet().stream().sorted(String.CASE_INSENSITIVE_ORDER).toList();
	}

	/** Whether there is no header. */
	public boolean isEmpty() {
		return values.isEmpty();
	}

	/** The guard of the credential headers' values ({@link #credential}); {@link SecretGuard#none()} when none. */
	public SecretGuard guard() {
		return guard;
	}

	/** The names, never the values. */
	@Override
	public String toString() {
		return isEmpty() ? "no request headers" : "request headers " + String.join(", ", names());
	}
}
