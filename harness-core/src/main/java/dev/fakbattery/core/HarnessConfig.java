package dev.fakbattery.core;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

import dev.fakbattery.wire.Dialect;

import dev.fakbattery.core.ConfigurationException;

import org.apiguardian.api.API;

/**
 * Resolves the names of {@link HarnessConstants} over a lookup (JUnit configuration parameters in a test, see
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

	private HarnessConfig(Function<String, Optional<String>> lookup) {
		this.lookup = lookup;
	}

	/** Configuration for command-line tools: system properties only. */
	public static HarnessConfig fromSystemProperties() {
		return new HarnessConfig(name -> Optional.ofNullable(System.getProperty(name)));
	}

	/** Configuration over any lookup, for tests. */
	public static HarnessConfig of(Function<String, Optional<String>> lookup) {
		return new HarnessConfig(lookup);
	}

	/**
	 * JUnit configuration parameters for a self-test run (EngineTestKit) that must not see the
	 * {@code -D} values of the build running it: every name of {@link HarnessConstants} set blank
	 * (blank reads as unset), then {@code values}.
	 */
	public static java.util.Map<String, String> hermeticParameters(java.util.Map<String, String> values) {
		java.util.Map<String, String> parameters = new java.util.HashMap<>();
		for (java.lang.reflect.Field field : HarnessConstants.class.getFields()) {
			try {
				parameters.put((String) field.get(null), "");
			}
			catch (IllegalAccessException e) {
				throw new IllegalStateException(e);
			}
		}
		parameters.putAll(values);
		return parameters;
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

	/** Engine dialect, {@code vllm} (default) or {@code sglang}. */
	public Dialect engine() {
		Optional<String> raw = string(HarnessConstants.ENGINE);
		try {
			return raw.map(Dialect::parse).orElse(Dialect.VLLM);
		}
		catch (IllegalArgumentException e) {
			throw invalid(HarnessConstants.ENGINE, raw.get(), "one of " + Dialect.ids(), Dialect.VLLM.id());
		}
	}

	/** Whether PENDING_MEASUREMENT is allowed (battery) or fails the run (gpu). Fails closed: default false. */
	public boolean allowPending() {
		return bool(HarnessConstants.ALLOW_PENDING, false);
	}

	/** The running profile ({@code harness.profile}); {@link Profile#DEFAULT} when unset. */
	public Profile profile() {
		Optional<String> raw = string(HarnessConstants.PROFILE);
		try {
			return raw.map(Profile::parse).orElse(Profile.DEFAULT);
		}
		catch (IllegalArgumentException e) {
			throw invalid(HarnessConstants.PROFILE, raw.get(), "one of " + Profile.ids(), Profile.DEFAULT.id());
		}
	}

	/** The artifact folder; defaults to {@code experiments/embedded} under the working directory. */
	public Path experimentsDir() {
		return path(HarnessConstants.EXPERIMENTS_DIR).orElse(Path.of("experiments", "embedded")).toAbsolutePath();
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
