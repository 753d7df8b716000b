package dev.fakbattery.wire;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

/**
 * The one check that keeps secrets out of every file the harness writes: given the secrets' values (the API key read
 * from the environment variable named by {@code api.key.env}, see {@code dev.fakbattery.core.RunSecrets}; the
 * capture command's {@code --api-key-env}; any other secret a writer is given), it finds each one in text or bytes in
 * every form a writer may have turned it into, and redacts it from a log line. It lives in harness-wire so that the
 * plain jars (the capture command) use the same guard as the battery.
 *
 * <p>Forms found: the raw value; JSON-escaped (Jackson's escapes, {@code \/}, every character as {@code &#92;uXXXX} in
 * either case, and any mix, by unescaping the text, up to three nested levels, and searching the value);
 * URL-encoded (percent-encoding in either case, {@code +} for a space); base64 (standard and URL-safe alphabets, with
 * and without padding, alone or inside a longer blob at each of its three alignments, also across line breaks, raw or
 * JSON-escaped); and
 * the raw, JSON-escaped and URL-encoded value inside any base64 run, decoded. Text is compared byte for byte as UTF-8.
 * A value shorter than {@value #MIN_LENGTH} characters is not a secret it can tell from other text and is not
 * guarded; a base64 form is searched by the part of it that a value alone determines, when that part has at least
 * {@value #BASE64_CORE_MIN} characters.
 *
 * <p>Writers either fail closed ({@link #requireAbsent}: the file is not written and the failure names the writer,
 * the secret's parameter and the form, never the value) or redact ({@link #redact}: a log of a started engine or
 * gateway). A guard never holds a secret in its {@code toString}.
 *
 * @since 0.6
 */
public final class SecretGuard {

	/** The shortest value guarded: {@value}. */
	public static final int MIN_LENGTH = 4;

	/** The fewest base64 characters a value alone must determine for its base64 form to be searched: {@value}. */
	static final int BASE64_CORE_MIN = 8;

	/** The bytes of a file scanned at once: 4 MiB. */
	static final int WINDOW = 4 << 20;

	private static final Pattern BASE64_RUN = Pattern.compile("[A-Za-z0-9+/_-]{16,}={0,2}");

	private static final SecretGuard NONE = new SecretGuard(List.of());

	private final List<Secret> secrets;

	private SecretGuard(List<Secret> secrets) {
		this.secrets = List.copyOf(secrets);
	}

	/** A guard of no secret: it finds nothing and redacts nothing. */
	public static SecretGuard none() {
		return NONE;
	}

	/**
	 * The secret of {@code parameter} (the configuration name it came from, which a redaction and a failure name),
	 * described as {@code origin} in failures; a value shorter than {@value #MIN_LENGTH} characters guards nothing.
	 */
	public static SecretGuard of(String parameter, String origin, String value) {
		if (value == null || value.length() < MIN_LENGTH) {
			return NONE;
		}
		return new SecretGuard(List.of(new Secret(parameter, origin, value)));
	}

	/** This guard's secrets and {@code other}'s. */
	public SecretGuard and(SecretGuard other) {
		Set<Secret> all = new LinkedHashSet<>(secrets);
		all.addAll(other.secrets);
		return all.size() == secrets.size() ? this : new SecretGuard(new ArrayList<>(all));
	}

	/** Whether it guards no secret. */
	public boolean isEmpty() {
		return secrets.isEmpty();
	}

	/** The first secret found in {@code text}, as {@code ORIGIN, FORM}; empty when none is there in any form. */
	public Optional<String> find(String text) {
		return find(text.getBytes(StandardCharsets.UTF_8));
	}

	/** The first secret found in {@code bytes}, as {@code ORIGIN, FORM}; empty when none is there in any form. */
	public Optional<String> find(byte[] bytes) {
		if (secrets.isEmpty()) {
			return Optional.empty();
		}
		return findIn(new String(bytes, StandardCharsets.ISO_8859_1));
	}

	/**
	 * Fails closed: throws when {@code text} holds a secret in any form.
	 *
	 * @param where the writer and its file, for the failure (for example {@code artifact experiments/x.json})
	 * @throws IllegalStateException {@code WHERE would contain ORIGIN, FORM; refused to write it}, never the value
	 */
	public void requireAbsent(String text, String where) {
		requireAbsent(text.getBytes(StandardCharsets.UTF_8), where);
	}

	/** {@link #requireAbsent(String, String)} over bytes. */
	public void requireAbsent(byte[] bytes, String where) {
		find(bytes).ifPresent(found -> {
			throw refusal(where, found);
		});
	}

	/**
	 * {@link #requireAbsent(String, String)} over a file's bytes.
	 *
	 * @throws UncheckedIOException when the file cannot be read
	 */
	public void requireAbsent(Path file, String where) {
		find(file).ifPresent(found -> {
			throw refusal(where, found);
		});
	}

	/**
	 * {@link #find(byte[])} over a file's bytes, read in overlapping windows so that a file of any size is scanned
	 * whole.
	 *
	 * @throws UncheckedIOException when the file cannot be read
	 */
	public Optional<String> find(Path file) {
		if (secrets.isEmpty()) {
			return Optional.empty();
		}
		int window = WINDOW;
		int overlap = Math.max(64 << 10, longestForm() * 2);
		byte[] buffer = new byte[window];
		try (InputStream in = Files.newInputStream(file)) {
			int filled = 0;
			int read;
			while ((read = in.readNBytes(buffer, filled, window - filled)) > 0 || filled > 0) {
				int length = filled + read;
				Optional<String> found = findIn(new String(buffer, 0, length, StandardCharsets.ISO_8859_1));
				if (found.isPresent() || length < window) {
					return found;
				}
				System.arraycopy(buffer, length - overlap, buffer, 0, overlap);
				filled = overlap;
			}
			return Optional.empty();
		}
		catch (IOException e) {
			throw new UncheckedIOException("cannot read " + file + " to check it for secrets: " + e.getMessage(), e);
		}
	}

	/**
	 * {@code line} with every secret replaced by {@code [REDACTED PARAMETER]} in each literal form (raw, escaped,
	 * encoded, base64); a line that still holds one after that (a mixed escape, a blob) becomes
	 * {@code [REDACTED PARAMETER: the line held it]} whole, its line break kept.
	 */
	public String redact(String line) {
		if (secrets.isEmpty()) {
			return line;
		}
		byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
		byte[] redacted = redact(bytes);
		return redacted == bytes ? line : new String(redacted, StandardCharsets.UTF_8);
	}

	/** {@link #redact(String)} over a line's bytes; the same array when nothing was there. */
	public byte[] redact(byte[] line) {
		if (secrets.isEmpty()) {
			return line;
		}
		String text = new String(line, StandardCharsets.ISO_8859_1);
		String redacted = text;
		for (Secret secret : secrets) {
			for (String form : secret.literalForms) {
				redacted = replaceIgnoringNothing(redacted, form, "[REDACTED " + secret.parameter + "]");
			}
		}
		for (Secret secret : secrets) {
			if (secret.foundIn(views(redacted)).isPresent()) {
				String end = text.endsWith("\r\n") ? "\r\n" : text.endsWith("\n") ? "\n" : "";
				redacted = "[REDACTED " + secret.parameter + ": the line held it]" + end;
			}
		}
		return redacted.equals(text) ? line : redacted.getBytes(StandardCharsets.ISO_8859_1);
	}

	/**
	 * {@code text} with each of its lines {@link #redact(byte[]) redacted}; a text that still holds a secret after that (a
	 * base64 blob broken across lines) becomes the one line {@code [REDACTED PARAMETER: the text held it]}. The same
	 * array when no secret was there: what a writer of a whole file (an Allure result's value, an attachment) is given.
	 */
	public byte[] redactText(byte[] text) {
		if (find(text).isEmpty()) {
			return text;
		}
		ByteArrayOutputStream out = new ByteArrayOutputStream(text.length);
		int start = 0;
		for (int i = 0; i <= text.length; i++) {
			if (i == text.length || text[i] == '\n') {
				int end = Math.min(i + 1, text.length);
				out.writeBytes(redact(Arrays.copyOfRange(text, start, end)));
				start = end;
			}
		}
		byte[] redacted = out.toByteArray();
		Views views = views(new String(redacted, StandardCharsets.ISO_8859_1));
		for (Secret secret : secrets) {
			if (secret.foundIn(views).isPresent()) {
				return ("[REDACTED " + secret.parameter + ": the text held it]").getBytes(StandardCharsets.ISO_8859_1);
			}
		}
		return redacted;
	}

	/** The longest run of bytes a secret's form may take: a line-redacting writer keeps this many for the next chunk. */
	public int longestForm() {
		return secrets.stream().flatMap(s -> s.literalForms.stream()).mapToInt(String::length).max().orElse(0) + 8;
	}

	/** The parameters guarded, never their values. */
	@Override
	public String toString() {
		return "SecretGuard" + secrets.stream().map(s -> s.parameter).toList();
	}

	private Optional<String> findIn(String latin1) {
		Views views = views(latin1);
		for (Secret secret : secrets) {
			Optional<String> form = secret.foundIn(views);
			if (form.isPresent()) {
				return Optional.of(secret.origin + ", " + form.get());
			}
		}
		return Optional.empty();
	}

	/** {@code WHERE would contain FOUND; refused to write it}: the failure of a writer that fails closed. */
	public static IllegalStateException refusal(String where, String found) {
		return new IllegalStateException(where + " would contain " + found + "; refused to write it");
	}

	private static String replaceIgnoringNothing(String text, String form, String marker) {
		return text.contains(form) ? text.replace(form, marker) : text;
	}

	/** The text and what it reads as once unescaped, decoded and unwrapped, computed once for every secret. */
	private static Views views(String latin1) {
		String json = latin1;
		for (int level = 0; level < 3 && json.indexOf('\\') >= 0; level++) {
			String unescaped = jsonUnescape(json);
			if (unescaped.equals(json)) {
				break;
			}
			json = unescaped;
		}
		String url = percentDecode(latin1, false);
		String urlPlus = percentDecode(latin1, true);
		String jsonUrl = percentDecode(json, false);
		String unwrapped = unwrap(latin1);
		String jsonUnwrapped = unwrap(json);
		List<String> decodedRuns = new ArrayList<>();
		for (String source : new LinkedHashSet<>(List.of(latin1, json, unwrapped, jsonUnwrapped))) {
			Matcher runs = BASE64_RUN.matcher(source);
			while (runs.find()) {
				String run = runs.group().replace('-', '+').replace('_', '/').replace("=", "");
				for (int shift = 0; shift < 4; shift++) { // a run has at least 16 characters
					String aligned = run.substring(shift, shift + (run.length() - shift) / 4 * 4);
					decodedRuns.add(new String(Base64.getDecoder().decode(aligned), StandardCharsets.ISO_8859_1));
				}
			}
		}
		return new Views(latin1, json, List.of(url, urlPlus, jsonUrl), List.of(latin1, json, unwrapped, jsonUnwrapped), decodedRuns);
	}

	/** The text without its line breaks: a base64 blob wrapped over lines, or over escaped lines in a JSON string. */
	private static String unwrap(String text) {
		return text.indexOf('\r') < 0 && text.indexOf('\n') < 0 ? text : text.replace("\r", "").replace("\n", "");
	}

	/**
	 * @param raw the text as written
	 * @param json the text JSON-unescaped
	 * @param url the text (and the unescaped text) percent-decoded
	 * @param base64 the texts a base64 form is searched in
	 * @param decodedRuns every base64 run of the text decoded at each of its four starting offsets
	 */
	private record Views(String raw, String json, List<String> url, List<String> base64, List<String> decodedRuns) {
	}

	/** A secret and the literal forms it takes, all as the ISO-8859-1 view of their UTF-8 bytes. */
	private static final class Secret {

		final String parameter;
		final String origin;
		final String value;
		final List<String> base64Cores;
		final List<String> literalForms;

		Secret(String parameter, String origin, String plain) {
			this.parameter = parameter;
			this.origin = origin;
			this.value = latin1(plain.getBytes(StandardCharsets.UTF_8));
			this.base64Cores = base64Cores(plain.getBytes(StandardCharsets.UTF_8));
			Set<String> forms = new LinkedHashSet<>();
			forms.add(value);
			forms.add(latin1(JsonStringEncoder.getInstance().quoteAsUTF8(plain)));
			forms.add(unicodeEscaped(plain, "\\u%04x"));
			forms.add(unicodeEscaped(plain, "\\u%04X"));
			forms.add(URLEncoder.encode(plain, StandardCharsets.UTF_8));
			forms.add(URLEncoder.encode(plain, StandardCharsets.UTF_8).replace("+", "%20"));
			forms.add(percentEncoded(plain, "%%%02X"));
			forms.add(percentEncoded(plain, "%%%02x"));
			byte[] bytes = plain.getBytes(StandardCharsets.UTF_8);
			forms.add(Base64.getEncoder().encodeToString(bytes));
			forms.add(Base64.getUrlEncoder().encodeToString(bytes));
			forms.addAll(base64Cores);
			List<String> sorted = new ArrayList<>(forms);
			sorted.sort(Comparator.comparingInt(String::length).reversed());
			this.literalForms = List.copyOf(sorted);
		}

		Optional<String> foundIn(Views views) {
			if (views.raw.contains(value)) {
				return Optional.of("raw");
			}
			if (views.json.contains(value)) {
				return Optional.of("JSON-escaped");
			}
			for (String decoded : views.url) {
				if (decoded.contains(value)) {
					return Optional.of("URL-encoded");
				}
			}
			for (String text : views.base64) {
				for (String core : base64Cores) {
					if (text.contains(core)) {
						return Optional.of("base64");
					}
				}
			}
			for (String decoded : views.decodedRuns) {
				if (decoded.contains(value) || jsonUnescape(decoded).contains(value) || percentDecode(decoded, false).contains(value)) {
					return Optional.of("base64");
				}
			}
			return Optional.empty();
		}

		@Override
		public boolean equals(Object other) {
			return other instanceof Secret that && parameter.equals(that.parameter) && value.equals(that.value);
		}

		@Override
		public int hashCode() {
			return Objects.hash(parameter, value);
		}
	}

	/**
	 * The base64 characters that {@code bytes} alone determine when they start at each of the three offsets of a
	 * 3-byte group, in both alphabets: what any blob holding them holds, whatever surrounds them.
	 */
	static List<String> base64Cores(byte[] bytes) {
		List<String> cores = new ArrayList<>();
		for (int offset = 0; offset < 3; offset++) {
			byte[] shifted = new byte[offset + bytes.length];
			System.arraycopy(bytes, 0, shifted, offset, bytes.length);
			String encoded = Base64.getEncoder().withoutPadding().encodeToString(shifted);
			int from = (offset * 8 + 5) / 6;
			int to = shifted.length * 8 / 6;
			if (to - from >= BASE64_CORE_MIN) {
				String core = encoded.substring(from, to);
				cores.add(core);
				cores.add(core.replace('+', '-').replace('/', '_'));
			}
		}
		return List.copyOf(new LinkedHashSet<>(cores));
	}

	/** JSON string escapes resolved, over the ISO-8859-1 view of UTF-8 bytes; anything else kept as it is. */
	static String jsonUnescape(String latin1) {
		StringBuilder out = new StringBuilder(latin1.length());
		int i = 0;
		while (i < latin1.length()) {
			char c = latin1.charAt(i);
			if (c != '\\' || i + 1 >= latin1.length()) {
				out.append(c);
				i++;
				continue;
			}
			char next = latin1.charAt(i + 1);
			switch (next) {
				case '"', '\\', '/' -> {
					out.append(next);
					i += 2;
				}
				case 'b' -> {
					out.append('\b');
					i += 2;
				}
				case 'f' -> {
					out.append('\f');
					i += 2;
				}
				case 'n' -> {
					out.append('\n');
					i += 2;
				}
				case 'r' -> {
					out.append('\r');
					i += 2;
				}
				case 't' -> {
					out.append('\t');
					i += 2;
				}
				case 'u' -> {
					int unit = hex(latin1, i + 2, 4);
					if (unit < 0) {
						out.append(c);
						i++;
						break;
					}
					i += 6;
					int codePoint = unit;
					if (Character.isHighSurrogate((char) unit) && i + 6 <= latin1.length() && latin1.startsWith("\\u", i)) {
						int low = hex(latin1, i + 2, 4);
						if (low >= 0 && Character.isLowSurrogate((char) low)) {
							codePoint = Character.toCodePoint((char) unit, (char) low);
							i += 6;
						}
					}
					out.append(latin1(new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8)));
				}
				default -> {
					out.append(c);
					i++;
				}
			}
		}
		return out.toString();
	}

	/** {@code %XX} (either case) resolved to its byte; with {@code plus}, {@code +} read as a space. */
	static String percentDecode(String latin1, boolean plus) {
		if (latin1.indexOf('%') < 0 && !(plus && latin1.indexOf('+') >= 0)) {
			return latin1;
		}
		StringBuilder out = new StringBuilder(latin1.length());
		for (int i = 0; i < latin1.length(); i++) {
			char c = latin1.charAt(i);
			int value = c == '%' ? hex(latin1, i + 1, 2) : -1;
			if (value >= 0) {
				out.append((char) value);
				i += 2;
			}
			else {
				out.append(plus && c == '+' ? ' ' : c);
			}
		}
		return out.toString();
	}

	private static int hex(String text, int from, int digits) {
		if (from + digits > text.length()) {
			return -1;
		}
		int value = 0;
		for (int i = from; i < from + digits; i++) {
			int digit = Character.digit(text.charAt(i), 16);
			if (digit < 0) {
				return -1;
			}
			value = value * 16 + digit;
		}
		return value;
	}

	private static String unicodeEscaped(String plain, String format) {
		StringBuilder out = new StringBuilder();
		plain.chars().forEach(unit -> out.append(String.format(Locale.ROOT, format, unit)));
		return out.toString();
	}

	private static String percentEncoded(String plain, String format) {
		StringBuilder out = new StringBuilder();
		for (byte b : plain.getBytes(StandardCharsets.UTF_8)) {
			out.append(String.format(Locale.ROOT, format, b & 0xff));
		}
		return out.toString();
	}

	private static String latin1(byte[] bytes) {
		return new String(bytes, StandardCharsets.ISO_8859_1);
	}
}
