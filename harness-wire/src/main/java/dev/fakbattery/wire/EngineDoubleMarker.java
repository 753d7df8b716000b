package dev.fakbattery.wire;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How the engine double says what it is, on every wire it speaks, so that whatever URL reaches it the
 * harness labels its numbers SIMULATED instead of passing them off as an engine's. Its marks:
 * <ul>
 * <li>its version carries {@value #SUFFIX} ({@code /version}, SGLang's {@code /get_server_info}, and so the
 * {@code system_fingerprint} of its vLLM-dialect {@code /v1} answers, {@code vllm-<version>-<hash>});</li>
 * <li>every response carries the header {@code Server: }{@value #SERVER};</li>
 * <li>its {@code /metrics} page opens with the comment {@link #METRICS_COMMENT};</li>
 * <li>every id it makes up (the answer's {@code id}, tool-call ids, in both dialects) ends in an id mark
 * ({@link #markedId}): the last {@value #ID_MARK_DIGITS} hex digits are a keyed hash (HMAC-SHA256 keyed with
 * {@value #ID_KEY}) of the hex digits before them. The id keeps the engine's exact shape (SGLang's 32 hex digits,
 * {@code call_} and 24, vLLM's {@code chatcmpl-} and 16, {@code chatcmpl-tool-} and 16), so the wire stays byte for
 * byte the engine's, and a real engine's random id carries the mark by chance with probability 2<sup>-32</sup>. An id
 * the request supplied (SGLang's {@code rid}, vLLM's {@code X-Request-Id}) is echoed as the engine echoes it, unmarked.</li>
 * </ul>
 * So a proxy that hides the version endpoints and the header but relays the metrics (whose families are vLLM's), or
 * relays only {@code /v1}, still shows it, in either dialect (SGLang sends no {@code system_fingerprint}: there the id
 * mark is what shows). All are read in one place, {@link #evidence}.
 *
 * @since 0.1
 */
public final class EngineDoubleMarker {

	/** Appended to the double's reported engine version: {@value}. */
	public static final String SUFFIX = "+engine-double";

	/** The double's {@code Server} response header: {@value}. */
	public static final String SERVER = "fak-battery-engine-double";

	/**
	 * The first line of the double's {@code /metrics} page, a Prometheus comment every parser skips: {@value}.
	 *
	 * @since 0.5
	 */
	public static final String METRICS_COMMENT = "# " + SERVER + ": simulated numbers, no engine behind them";

	/**
	 * The key of the id mark's keyed hash: {@value}. It is public and fixed: the mark says "made by the double", it
	 * guards nothing.
	 *
	 * @since 0.8
	 */
	public static final String ID_KEY = "fak-battery-engine-double";

	/**
	 * How many hex digits at the end of an id are its mark: {@value}.
	 *
	 * @since 0.8
	 */
	public static final int ID_MARK_DIGITS = 8;

	/** An id whose last hex digits may be a mark: its trailing run of lower-case hex, at least 8 digits before the mark. */
	private static final Pattern MARKABLE_ID = Pattern.compile("(?:.*[^0-9a-f])?([0-9a-f]{8,})([0-9a-f]{" + ID_MARK_DIGITS + "})");

	private EngineDoubleMarker() {
	}

	/**
	 * {@code randomHex} (lower-case hex digits, at least 8 of them) followed by its mark, {@value #ID_MARK_DIGITS} hex
	 * digits: the first of HMAC-SHA256 keyed with {@value #ID_KEY} over {@code randomHex}.
	 *
	 * @throws IllegalArgumentException when {@code randomHex} is not 8 or more lower-case hex digits
	 * @since 0.8
	 */
	public static String markedId(String randomHex) {
		if (!randomHex.matches("[0-9a-f]{8,}")) {
			throw new IllegalArgumentException("an id mark needs 8 or more lower-case hex digits to hash, got [" + randomHex + "]");
		}
		return randomHex + mark(randomHex);
	}

	/**
	 * Whether {@code id} (may be null) ends in the double's id mark ({@link #markedId}), after any prefix that does not
	 * end in a hex digit ({@code chatcmpl-}, {@code call_}).
	 *
	 * @since 0.8
	 */
	public static boolean idMarked(String id) {
		if (id == null) {
			return false;
		}
		Matcher hex = MARKABLE_ID.matcher(id);
		return hex.matches() && hex.group(2).equals(mark(hex.group(1)));
	}

	/**
	 * The dialect the double answered in, read from its answer's {@code id} ({@code answerId}, may be null) when that is
	 * marked ({@link #idMarked}): SGLang's shape, 32 hex digits, or vLLM's, {@code chatcmpl-} and 16. Empty for an id
	 * that is not marked or of neither shape.
	 *
	 * @since 0.8
	 */
	public static Optional<Dialect> answerIdDialect(String answerId) {
		if (!idMarked(answerId)) {
			return Optional.empty();
		}
		return answerId.matches("[0-9a-f]{32}")
				? Optional.of(Dialect.SGLANG)
				: answerId.matches("chatcmpl-[0-9a-f]{16}") ? Optional.of(Dialect.VLLM) : Optional.empty();
	}

	private static String mark(String hex) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(ID_KEY.getBytes(StandardCharsets.US_ASCII), "HmacSHA256"));
			return HexFormat.of().formatHex(mac.doFinal(hex.getBytes(StandardCharsets.US_ASCII)), 0, ID_MARK_DIGITS / 2);
		}
		catch (GeneralSecurityException e) {
			throw new IllegalStateException("HmacSHA256, which every JDK provides, is missing", e);
		}
	}

	/**
	 * Why an engine that reported {@code version} and sent the {@code Server} header {@code server} is
	 * the engine double; empty when neither says so. Either argument may be null.
	 */
	public static Optional<String> evidence(String version, String server) {
		return evidence(version, server, null);
	}

	/**
	 * {@link #evidence(String, String)}, or, when neither says so, whether the {@code /metrics} page
	 * {@code metricsPage} (may be null) carries {@link #METRICS_COMMENT}.
	 *
	 * @since 0.5
	 */
	public static Optional<String> evidence(String version, String server, String metricsPage) {
		return evidence(version, server, metricsPage, null);
	}

	/**
	 * {@link #evidence(String, String, String)}, or, when none says so, whether the {@code system_fingerprint}
	 * {@code fingerprint} of a {@code /v1} answer (may be null) carries {@value #SUFFIX}.
	 *
	 * @since 0.8
	 */
	public static Optional<String> evidence(String version, String server, String metricsPage, String fingerprint) {
		return evidence(version, server, metricsPage, fingerprint, null);
	}

	/**
	 * {@link #evidence(String, String, String, String)}, or, when none says so, whether the {@code id} {@code answerId}
	 * of a {@code /v1} answer (may be null) ends in the double's id mark ({@link #idMarked}).
	 *
	 * @since 0.8
	 */
	public static Optional<String> evidence(String version, String server, String metricsPage, String fingerprint,
			String answerId) {
		if (version != null && version.contains("engine-double")) {
			return Optional.of("its version [" + version + "] carries the engine double's suffix " + SUFFIX);
		}
		if (server != null && server.contains("engine-double")) {
			return Optional.of("its Server header [" + server + "] names the engine double");
		}
		if (metricsPage != null && metricsPage.contains(METRICS_COMMENT)) {
			return Optional.of("its /metrics page carries the engine double's comment [" + METRICS_COMMENT + "]");
		}
		if (fingerprint != null && fingerprint.contains("engine-double")) {
			return Optional.of("the system_fingerprint [" + fingerprint + "] of its /v1 answer carries the engine double's suffix "
					+ SUFFIX);
		}
		if (idMarked(answerId)) {
			return Optional.of("the id [" + answerId + "] of its /v1 answer ends in the engine double's id mark (its last "
					+ ID_MARK_DIGITS + " hex digits are HMAC-SHA256 keyed with " + ID_KEY + " of the digits before them)");
		}
		return Optional.empty();
	}
}
