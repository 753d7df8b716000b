package dev.fakbattery.core;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.apiguardian.api.API;

/**
 * One configuration key of {@link ConfigKeys}: its name, type, default (per {@link Profile} where a profile changes
 * it) and a one-line doc. {@link HarnessConfig#get(ConfigKey)} reads it; {@code docs/configuration.md} is generated
 * from it ({@link ConfigDocs}).
 *
 * @param <T> the value's type
 * @since 0.7
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.6")
public final class ConfigKey<T> {

	/** What a key's value is, with the words that name it in an error message and in the docs. */
	public enum Type {
		STRING("string", "text"),
		POSITIVE_INT("int", "a positive integer"),
		NON_NEGATIVE_INT("int", "an integer >= 0"),
		BOOLEAN("boolean", "true or false"),
		DECIMAL("decimal", "a number"),
		POSITIVE_INTS("ints",
				"comma-separated positive integers"),
		POSITIVE_DECIMALS("decimals", "comma-separated positive numbers"),
		PATH("path", "a path"),
		V1_URL("url", "an http(s) URL ending in /v1");

		private final String shortName;

		private final String expected;

		Type(String shortName, String expected) {
			this.shortName = shortName;
			this.expected = expected;
		}

		/** The name in the docs' type column. */
		public String shortName() {
			return shortName;
		}
	}

	private final String name;

	private final Type type;

	private final T defaultValue;

	private final Map<Profile, T> profileDefaults;

	private final String defaultText;

	private final String doc;

	private final double min;

	private final double max;

	private final Function<String, T> parser;

	private final String example;

	private ConfigKey(String name, Type type, T defaultValue, Map<Profile, T> profileDefaults, String defaultText, String doc,
			double min, double max, Function<String, T> parser) {
		this(name, type, defaultValue, profileDefaults, defaultText, doc, min, max, parser, null);
	}

	private ConfigKey(String name, Type type, T defaultValue, Map<Profile, T> profileDefaults, String defaultText, String doc,
			double min, double max, Function<String, T> parser, String example) {
		this.name = name;
		this.type = type;
		this.defaultValue = defaultValue;
		this.profileDefaults = profileDefaults;
		this.defaultText = defaultText;
		this.doc = doc;
		this.min = min;
		this.max = max;
		this.parser = parser;
		this.example = example;
	}

	private static <T> ConfigKey<T> key(String name, Type type, T defaultValue, Function<String, T> parser) {
		return new ConfigKey<>(name, type, defaultValue, Map.of(), null, "", Double.NaN, Double.NaN, parser);
	}

	/** A text key; {@code defaultValue} may be null (no default). */
	public static ConfigKey<String> stringKey(String name, String defaultValue) {
		return key(name, Type.STRING, defaultValue, Function.identity());
	}

	/** A text key without a default. */
	public static ConfigKey<String> stringKey(String name) {
		return stringKey(name, null);
	}

	/** A positive integer; {@code defaultValue} may be null (no default). */
	public static ConfigKey<Integer> intKey(String name, Integer defaultValue) {
		return key(name, Type.POSITIVE_INT, defaultValue, raw -> {
			Integer value = parseInt(raw);
			return value != null && value > 0 ? value : null;
		});
	}

	/** An integer {@code >= 0}; {@code defaultValue} may be null (no default). */
	public static ConfigKey<Integer> nonNegativeIntKey(String name, Integer defaultValue) {
		return key(name, Type.NON_NEGATIVE_INT, defaultValue, raw -> {
			Integer value = parseInt(raw);
			return value != null && value >= 0 ? value : null;
		});
	}

	/** {@code true} or {@code false}, any case. */
	public static ConfigKey<Boolean> boolKey(String name, boolean defaultValue) {
		return key(name, Type.BOOLEAN, defaultValue, raw -> switch (raw.toLowerCase(Locale.ROOT)) {
			case "true" -> Boolean.TRUE;
			case "false" -> Boolean.FALSE;
			default -> null;
		});
	}

	/** A decimal number within {@code [min, max]}; {@code defaultValue} may be null (no default). */
	public static ConfigKey<Double> decimalKey(String name, Double defaultValue, double min, double max) {
		return new ConfigKey<>(name, Type.DECIMAL, defaultValue, Map.of(), null, "", min, max, raw -> {
			try {
				double value = Double.parseDouble(raw);
				return value >= min && value <= max ? value : null;
			}
			catch (NumberFormatException e) {
				return null;
			}
		});
	}

	/** Positive integers, comma separated. */
	public static ConfigKey<List<Integer>> intsKey(String name, List<Integer> defaultValue) {
		return key(name, Type.POSITIVE_INTS, defaultValue, raw -> {
			List<Integer> values = new ArrayList<>();
			for (String part : raw.split(",")) {
				Integer value = parseInt(part.trim());
				if (value == null || value <= 0) {
					return null;
				}
				values.add(value);
			}
			return List.copyOf(values);
		});
	}

	/** Positive decimal numbers, comma separated. */
	public static ConfigKey<List<Double>> decimalsKey(String name, List<Double> defaultValue) {
		return key(name, Type.POSITIVE_DECIMALS, defaultValue, raw -> {
			List<Double> values = new ArrayList<>();
			for (String part : raw.split(",")) {
				try {
					double value = Double.parseDouble(part.trim());
					if (!(value > 0) || Double.isInfinite(value)) {
						return null;
					}
					values.add(value);
				}
				catch (NumberFormatException e) {
					return null;
				}
			}
			return List.copyOf(values);
		});
	}

	/** A path; no default (a default path is computed where it is read, see {@link #defaultText(String)}). */
	public static ConfigKey<Path> pathKey(String name) {
		return pathKey(name, null);
	}

	/** A path with a default; {@code defaultValue} may be null (no default). */
	public static ConfigKey<Path> pathKey(String name, String defaultValue) {
		return key(name, Type.PATH, defaultValue == null ? null : Path.of(defaultValue), Path::of);
	}

	/** An http(s) URL that ends in {@code /v1}, read without a trailing slash; no default. */
	public static ConfigKey<URI> v1UrlKey(String name) {
		return key(name, Type.V1_URL, null, raw -> {
			String value = raw.endsWith("/") ? raw.substring(0, raw.length() - 1) : raw;
			try {
				URI uri = new URI(value);
				boolean http = "http".equals(uri.getScheme()) || "https".equals(uri.getScheme());
				return http && uri.getHost() != null && value.endsWith("/v1") ? uri : null;
			}
			catch (URISyntaxException e) {
				return null;
			}
		});
	}

	/** This key with its one-line doc (markdown). */
	public ConfigKey<T> doc(String text) {
		return new ConfigKey<>(name, type, defaultValue, profileDefaults, defaultText, text, min, max, parser, example);
	}

	/** This key with another default under {@code profile}. */
	public ConfigKey<T> profileDefault(Profile profile, T value) {
		Map<Profile, T> defaults = new EnumMap<>(Profile.class);
		defaults.putAll(profileDefaults);
		defaults.put(profile, value);
		return new ConfigKey<>(name, type, defaultValue, Collections.unmodifiableMap(defaults), defaultText, doc, min, max, parser,
				example);
	}

	/**
	 * This key with its default described in words, for a default computed where the key is read (from another key,
	 * the engine, the experiments folder): shown in the docs instead of a value.
	 */
	public ConfigKey<T> defaultText(String text) {
		return new ConfigKey<>(name, type, defaultValue, profileDefaults, text, doc, min, max, parser, example);
	}

	/** This key with a value that parses, named by an error message when the key has no default. */
	public ConfigKey<T> example(String value) {
		return new ConfigKey<>(name, type, defaultValue, profileDefaults, defaultText, doc, min, max, parser, value);
	}

	/** The name, as in {@code -Dname=value}. */
	public String name() {
		return name;
	}

	public Type type() {
		return type;
	}

	/** The one-line doc. */
	public String doc() {
		return doc;
	}

	/** The default outside every profile that changes it; empty when there is none. */
	public Optional<T> defaultValue() {
		return Optional.ofNullable(defaultValue);
	}

	/** The defaults of the profiles that change it. */
	public Map<Profile, T> profileDefaults() {
		return profileDefaults;
	}

	/** The default under {@code profile}: its own where it has one, else {@link #defaultValue()}. */
	public Optional<T> defaultFor(Profile profile) {
		return profileDefaults.containsKey(profile) ? Optional.of(profileDefaults.get(profile)) : defaultValue();
	}

	/** The words describing a computed default, if any. */
	public Optional<String> defaultText() {
		return Optional.ofNullable(defaultText);
	}

	/**
	 * Parses {@code raw} (trimmed, not blank).
	 *
	 * @throws ConfigurationException naming the key, the value, what it expects and a value that works
	 */
	public T parse(String raw) {
		T value = parser.apply(raw);
		if (value == null) {
			String expected = type == Type.DECIMAL ? "a number within [" + min + ", " + max + "]" : type.expected;
			throw HarnessConfig.invalid(name, raw, expected, example());
		}
		return value;
	}

	/** A value that parses: the default, else the key's example, else one of the type's. */
	String example() {
		if (defaultValue == null && example != null) {
			return example;
		}
		if (defaultValue instanceof List<?> list) {
			return String.join(",", list.stream().map(String::valueOf).toList());
		}
		if (defaultValue != null) {
			return String.valueOf(defaultValue);
		}
		return switch (type) {
			case STRING, PATH -> "VALUE";
			case POSITIVE_INT, POSITIVE_INTS -> "1";
			case NON_NEGATIVE_INT -> "0";
			case BOOLEAN -> "false";
			case DECIMAL -> format(min);
			case POSITIVE_DECIMALS -> "1";
			case V1_URL -> "http://127.0.0.1:8000/v1";
		};
	}

	/** A value as it is written on the command line: lists comma-joined, whole decimals without {@code .0}. */
	public static String format(Object value) {
		if (value instanceof List<?> list) {
			return String.join(",", list.stream().map(ConfigKey::format).toList());
		}
		if (value instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d)) {
			return String.valueOf(d.longValue());
		}
		return String.valueOf(value);
	}

	private static Integer parseInt(String raw) {
		try {
			return Integer.parseInt(raw);
		}
		catch (NumberFormatException e) {
			return null;
		}
	}

	@Override
	public String toString() {
		return name;
	}
}
