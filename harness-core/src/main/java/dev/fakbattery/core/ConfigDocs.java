package dev.fakbattery.core;

import java.util.Map;
import java.util.stream.Collectors;

import org.apiguardian.api.API;

/**
 * The table of {@code docs/configuration.md}, written from {@link ConfigKeys}: one row per key with its type, default,
 * per-profile defaults and doc, between the markers {@value #BEGIN} and {@value #END}; the prose around them is kept.
 * {@code ConfigDocsTests} fails when the committed file differs and prints the command that rewrites it.
 *
 * @since 0.7
 */
@API(status = API.Status.INTERNAL, since = "0.6")
public final class ConfigDocs {

	/** The line before the generated table. */
	public static final String BEGIN = "<!-- generated: ConfigDocs, from ConfigKeys; do not edit by hand -->";

	/** The line after the generated table. */
	public static final String END = "<!-- end generated: ConfigDocs -->";

	private ConfigDocs() {
	}

	/** The markdown table of every key, in {@link ConfigKeys#all()}'s order. */
	public static String table() {
		StringBuilder out = new StringBuilder();
		out.append("| key | type | default | per profile | meaning |\n");
		out.append("|---|---|---|---|---|\n");
		for (ConfigKey<?> key : ConfigKeys.all()) {
			out.append("| `")
					.append(key.name())
					.append("` | ")
					.append(key.type().shortName())
					.append(" | ")
					.append(defaultCell(key))
					.append(" | ")
					.append(profileCell(key))
					.append(" | ")
					.append(key.doc().replace("|", "\\|"))
					.append(" |\n");
		}
		return out.toString();
	}

	/**
	 * {@code document} with the part between {@link #BEGIN} and {@link #END} replaced by {@link #table()}.
	 *
	 * @throws IllegalArgumentException when the document lacks either marker
	 */
	public static String render(String document) {
		int begin = document.indexOf(BEGIN);
		int end = document.indexOf(END);
		if (begin < 0 || end < begin) {
			throw new IllegalArgumentException("docs/configuration.md has no generated block: add a line " + BEGIN
					+ " and, below it, a line " + END);
		}
		return document.substring(0, begin + BEGIN.length()) + "\n\n" + table() + "\n" + document.substring(end);
	}

	private static String defaultCell(ConfigKey<?> key) {
		if (key.defaultValue().isPresent()) {
			return code(key.defaultValue().get());
		}
		return key.defaultText().orElse("none");
	}

	private static String profileCell(ConfigKey<?> key) {
		Map<Profile, ?> defaults = key.profileDefaults();
		if (defaults.isEmpty()) {
			return "";
		}
		return defaults.entrySet().stream().map(e -> e.getKey().id() + ": " + code(e.getValue())).collect(Collectors.joining(", "));
	}

	private static String code(Object value) {
		return "`" + ConfigKey.format(value) + "`";
	}
}
