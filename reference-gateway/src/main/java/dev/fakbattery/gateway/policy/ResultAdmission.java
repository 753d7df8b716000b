package dev.fakbattery.gateway.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Admission of tool results (tool-role messages) before they reach the engine: a result that
 * carries a prompt injection or a secret is quarantined, its content replaced.
 *
 * @since 0.1
 */
public final class ResultAdmission {

	/** Replacement content of a quarantined result. */
	public static final String QUARANTINED = "[tool result quarantined by the gateway: %s]";

	private static final Pattern INJECTION = Pattern.compile(
			"(?i)(ignore (all |any )?(previous|prior|above) instructions|disregard (the |all )?(previous|prior|above)"
					+ "|exfiltrate|reveal (the |your )?system prompt|you are now (in )?developer mode)");
	private static final Pattern SECRET = Pattern.compile(
			"(sk-[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}|ghp_[A-Za-z0-9]{36}|xox[bp]-[A-Za-z0-9-]{10,}|-----BEGIN [A-Z ]*PRIVATE KEY-----)");

	private ResultAdmission() {
	}

	/** The kinds found in {@code content}: {@code injection}, {@code secret}; empty means admitted. */
	public static List<String> inspect(String content) {
		List<String> kinds = new ArrayList<>(2);
		if (content != null && INJECTION.matcher(content).find()) {
			kinds.add("injection");
		}
		if (content != null && SECRET.matcher(content).find()) {
			kinds.add("secret");
		}
		return kinds;
	}

	public static String replacement(List<String> kinds) {
		return String.format(QUARANTINED, String.join("+", kinds));
	}
}
