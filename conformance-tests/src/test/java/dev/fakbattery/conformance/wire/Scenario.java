package dev.fakbattery.conformance.wire;

import dev.fakbattery.wire.Dialect;

/**
 * What the kit's upstream replays, chosen by a marker in the last user message
 * ({@code kit:<scenario>}). Tool names follow the kit's policy convention.
 */
enum Scenario {
	TEXT("chat-text"),
	ALLOW("kit/tool-call-allow"),
	MIXED("kit/tool-call-mixed"),
	DENY_ONLY("kit/tool-call-deny-only"),
	QUARANTINE("chat-text"),
	PACED("chat-text"),
	STREAM_ERROR("stream-error"),
	TRUNCATED("kit/tool-call-mixed"),
	MALFORMED("kit/tool-call-mixed");

	private final String fixture;

	Scenario(String fixture) {
		this.fixture = fixture;
	}

	String marker() {
		return "kit:" + name().toLowerCase(java.util.Locale.ROOT);
	}

	/** The fixture path under fixtures/wire for {@code engine}, without extension. */
	String fixture(Dialect engine) {
		return fixture.startsWith("kit/") ? "kit/" + engine + fixture.substring(3) : engine + "/" + fixture;
	}
}
