package dev.fakbattery.core;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.fakbattery.wire.Dialect;

import org.apiguardian.api.API;

/**
 * Resolves the keys of {@link ConfigKeys} over a lookup (JUnit configuration parameters in a test, see
 * {@code dev.fakbattery.api.JupiterConfig}; system properties in a command-line tool): unset means unset, never a guess.
 *
 * <p>A value that cannot be parsed fails with an {@link ConfigurationException} that
 * names the parameter, the value and the fix.
 *
 * @since 0.1
 */
@API(status = API.Status.STABLE, since = "0.6")
public final class HarnessConfig {

	private final Function<String, Optional<String>> lookup;

	private final Supplier<Set<String>> names;

	private HarnessConfig(Function<String, Optional<String>> lookup, Supplier<Set<String>> names) {
		this.lookup = lookup;
		this.names = names;
	}

	/**
	 * Configuration for command-line tools: system properties only.
	 *
	 * @throws ConfigurationException when a system property is a misspelled key ({@link ConfigKeys#checkSpelling})
	 */
	public static HarnessConfig fromSystemProperties() {
		ConfigKeys.checkSpelling(System.getProperties().stringPropertyNames());
		return new HarnessConfig(name -> Optional.ofNullable(System.getProperty(name)), System.getProperties()::stringPropertyNames);
	}

	/** Configuration over any lookup, for tests; its names are not enumerable ({@link #prefixed} finds none). */
	public static HarnessConfig of(Function<String, Optional<String>> lookup) {
		return new HarnessConfig(lookup, Set::of);
	}

	/**
	 * Configuration over {@code lookup} whose enumerable names are {@code names} (the JVM's system properties, for a test
	 * run whose JUnit configuration parameters cannot be listed), for the keys that are a prefix and a name
	 * ({@link #prefixed}).
	 *
	 * @since 0.10
	 */
	public static HarnessConfig of(Function<String, Optional<String>> lookup, Supplier<Set<String>> names) {
		return new HarnessConfig(lookup, names);
	}

	/**
	 * Every enumerable name that starts with {@code prefix}, with its value (blank ones left out), by the rest of the name:
	 * {@code gateway.header.Authorization=...} is {@code Authorization} under {@code gateway.header.}.
	 *
	 * @since 0.10
	 */
	public Map<String, String> prefixed(String prefix) {
		Map<String, String> found = new TreeMap<>();
		for (String name : names.get()) {
			if (name.startsWith(prefix) && name.length() > prefix.length()) {
				string(name).ifPresent(value -> found.put(name.substring(prefix.length()), value));
			}
		}
		return found;
	}

	/**
	 * JUnit configuration parameters for a self-test run (EngineTestKit): every key of {@link ConfigKeys} set blank
	 * (blank reads as unset), then {@code values}. A self-test run sees none of the outer build's {@code -D} values
	 * even without it ({@code dev.fakbattery.api.JupiterConfig} reads configuration parameters only, and EngineTestKit
	 * passes only those it is given); this also blanks any a future lookup might add.
	 */
	public static java.util.Map<String, String> hermeticParameters(java.util.Map<String, String> values) {
		java.util.Map<String, String> parameters = new java.util.HashMap<>();
		for (ConfigKey<?> key : ConfigKeys.all()) {
			parameters.put(key.name(), "");
		}
		for (String name : System.getProperties().stringPropertyNames()) {
			if (name.startsWith(GatewayHeaders.PREFIX)) {
				parameters.put(name, "");
			}
		}
		parameters.putAll(values);
		return parameters;
	}

	/**
	 * The value of {@code key}, else its default under the running {@link #profile()}; empty when neither is there.
	 *
	 * @throws ConfigurationException naming the parameter, the value and the fix when the value does not parse
	 */
	public <T> Optional<T> find(ConfigKey<T> key) {
		Optional<String> raw = string(key.name());
		if (raw.isPresent()) {
			return Optional.of(key.parse(raw.get()));
		}
		return key.profileDefaults().isEmpty() ? key.defaultValue() : key.defaultFor(profile());
	}

	/**
	 * The value of {@code key}, else its default under the running {@link #profile()}.
	 *
	 * @throws ConfigurationException naming the parameter, the value and the fix when the value does not parse
	 * @throws IllegalStateException when the key has no default (read it with {@link #find(ConfigKey)})
	 */
	public <T> T get(ConfigKey<T> key) {
		return find(key).orElseThrow(() -> new IllegalStateException(key.name() + " has no default: read it with find()"));
	}

	/** The raw value of {@code name}, blank treated as unset. */
	public Optional<String> string(String name) {
		return lookup.apply(name).map(String::trim).filter(v -> !v.isEmpty());
	}

	public String string(String name, String defaultValue) {
		return string(name).orElse(defaultValue);
	}

	public int positiveInt(String name, int defaultValue) {
		Optional<String> raw = string(name);
		if (raw.isEmpty()) {
			return defaultValue;
		}
		try {
			int value = Integer.parseInt(raw.get());
			if (value > 0) {
				return value;
			}
		}
		catch (NumberFormatException ignored) {
			// reported below
		}
		throw invalid(name, raw.get(), "a positive integer", String.valueOf(defaultValue));
	}

	/** A positive integer when {@code name} is set; empty when unset, never a default. */
	public Optional<Integer> positiveInt(String name) {
		return string(name).map(value -> positiveInt(name, 1));
	}

	public boolean bool(String name, boolean defaultValue) {
		Optional<String> raw = string(name);
		if (raw.isEmpty()) {
			return defaultValue;
		}
		return switch (raw.get().toLowerCase(Locale.ROOT)) {
			case "true" -> true;
			case "false" -> false;
			default -> throw invalid(name, raw.get(), "true or false", String.valueOf(defaultValue));
		};
	}

	/**
	 * A decimal number within {@code [min, max]}; {@code defaultValue} when unset.
	 *
	 * @throws ConfigurationException naming the parameter, the value and the range
	 */
	public double decimal(String name, double defaultValue, double min, double max) {
		Optional<String> raw = string(name);
		if (raw.isEmpty()) {
			return defaultValue;
		}
		try {
			double value = Double.parseDouble(raw.get());
			if (value >= min && value <= max) {
				return value;
			}
		}
		catch (NumberFormatException ignored) {
			// reported below
		}
		throw invalid(name, raw.get(), "a number within [" + min + ", " + max + "]", String.valueOf(defaultValue));
	}

	/** A non-negative decimal number when {@code name} is set; empty when unset, never a default. */
	public Optional<Double> nonNegativeDecimal(String name) {
		return string(name).map(value -> decimal(name, 0, 0, Double.MAX_VALUE));
	}

	/** A list of positive decimal numbers, comma separated. */
	public List<Double> positiveDecimals(String name, List<Double> defaultValue) {
		Optional<String> raw = string(name);
		if (raw.isEmpty()) {
			return defaultValue;
		}
		List<Double> values = new ArrayList<>();
		for (String part : raw.get().split(",")) {
			try {
				double value = Double.parseDouble(part.trim());
				if (!(value > 0) || Double.isInfinite(value)) {
					throw new NumberFormatException();
				}
				values.add(value);
			}
			catch (NumberFormatException e) {
				throw invalid(name, raw.get(), "comma-separated positive numbers", String.join(",",
						defaultValue.stream().map(String::valueOf).toList()));
			}
		}
		return List.copyOf(values);
	}

	/** A path, relative ones resolved against the repository root ({@code harness.root.dir}) when it is known. */
	public Optional<Path> rootedPath(String name) {
		return path(name).map(p -> p.isAbsolute() ? p : path(HarnessConstants.ROOT_DIR).map(root -> root.resolve(p)).orElse(p));
	}

	/** A list of positive integers, comma separated. */
	public List<Integer> positiveInts(String name, List<Integer> defaultValue) {
		Optional<String> raw = string(name);
		if (raw.isEmpty()) {
			return defaultValue;
		}
		List<Integer> values = new ArrayList<>();
		for (String part : raw.get().split(",")) {
			try {
				int value = Integer.parseInt(part.trim());
				if (value <= 0) {
					throw new NumberFormatException();
				}
				values.add(value);
			}
			catch (NumberFormatException e) {
				throw invalid(name, raw.get(), "comma-separated positive integers", joined(defaultValue));
			}
		}
		return List.copyOf(values);
	}

	/** An http(s) URL that ends in {@code /v1}, returned without a trailing slash. */
	public Optional<URI> v1Url(String name) {
		Optional<String> raw = string(name);
		if (raw.isEmpty()) {
			return Optional.empty();
		}
		String value = raw.get().endsWith("/") ? raw.get().substring(0, raw.get().length() - 1) : raw.get();
		try {
			URI uri = new URI(value);
			boolean http = "http".equals(uri.getScheme()) || "https".equals(uri.getScheme());
			if (http && uri.getHost() != null && value.endsWith("/v1")) {
				return Optional.of(uri);
			}
		}
		catch (URISyntaxException ignored) {
			// reported below
		}
		throw invalid(name, raw.get(), "an http(s) URL ending in /v1", "http://127.0.0.1:8000/v1");
	}

	public Optional<Path> path(String name) {
		return string(name).map(Path::of);
	}

	/** Engine dialect ({@link ConfigKeys#ENGINE}). */
	public Dialect engine() {
		Optional<String> raw = string(HarnessConstants.ENGINE);
		try {
			return Dialect.parse(raw.orElse(ConfigKeys.ENGINE.defaultValue().orElseThrow()));
		}
		catch (IllegalArgumentException e) {
			throw invalid(HarnessConstants.ENGINE, raw.get(), "one of " + Dialect.ids(), ConfigKeys.ENGINE.example());
		}
	}

	/** Whether PENDING_MEASUREMENT is allowed (battery) or fails the run (gpu); fails closed ({@link ConfigKeys#ALLOW_PENDING}). */
	public boolean allowPending() {
		return get(ConfigKeys.ALLOW_PENDING);
	}

	/** The running profile ({@link ConfigKeys#PROFILE}). */
	public Profile profile() {
		Optional<String> raw = string(HarnessConstants.PROFILE);
		try {
			return Profile.parse(raw.orElse(ConfigKeys.PROFILE.defaultValue().orElseThrow()));
		}
		catch (IllegalArgumentException e) {
			throw invalid(HarnessConstants.PROFILE, raw.get(), "one of " + Profile.ids(), ConfigKeys.PROFILE.example());
		}
	}

	/** The artifact folder ({@link ConfigKeys#EXPERIMENTS_DIR}), absolute. */
	public Path experimentsDir() {
		return get(ConfigKeys.EXPERIMENTS_DIR).toAbsolutePath();
	}

	static ConfigurationException invalid(String name, String value, String expected, String example) {
		return new ConfigurationException(String.format(
				"Unable to parse %s value [%s]: expected %s. Fix: pass -D%s=%s or remove it to use the default.",
				name, value, expected, name, example));
	}

	private static String joined(List<Integer> values) {
		return String.join(",", values.stream().map(String::valueOf).toList());
	}
}
