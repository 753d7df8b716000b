package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * W13's search for a denied call's traces ({@link WireChecks#leaks}): as sent, and in every JSON string as a client
 * decodes it. Each encoding below hides the trace from a byte search; a body without the trace finds nothing.
 */
@DisplayName("W13 leak search: a denied call's trace as sent, JSON-escaped or \\u-escaped")
class LeakSearchTests {

	private static final String ARGS = "{\"path\": \"/etc/kit-deny-4e1f\"}";

	private static final List<String> TRACES = List.of("deny_write", ARGS);

	@Test
	@DisplayName("finds the arguments JSON-escaped in a string (llama.cpp's __verbose.content), in a body and in a stream's data line")
	void jsonEscaped() {
		String body = "{\"choices\":[],\"__verbose\":{\"content\":\"<tool_call>{\\\"name\\\": \\\"x\\\", \\\"arguments\\\": "
				+ ARGS.replace("\"", "\\\"") + "}</tool_call>\"}}";
		assertThat(body).doesNotContain(ARGS);
		assertThat(WireChecks.leaks(Exchange.of(body, false), TRACES)).containsExactly(ARGS);
		assertThat(WireChecks.leaks(Exchange.of("data: " + body + "\n\ndata: [DONE]\n\n", true), TRACES)).containsExactly(ARGS);
	}

	@Test
	@DisplayName("finds a name written with \\u escapes, and a trace inside a string that is JSON itself (escaped twice)")
	void unicodeEscapedAndNested() {
		String unicode = "{\"choices\":[],\"debug\":\"\\u0064\\u0065ny_write\"}";
		assertThat(unicode).doesNotContain("deny_write");
		assertThat(WireChecks.leaks(Exchange.of(unicode, false), TRACES)).containsExactly("deny_write");
		String twice = "{\"choices\":[],\"debug\":\"{\\\"raw\\\":\\\"" + ARGS.replace("\"", "\\\\\\\"") + "\\\"}\"}";
		assertThat(twice).doesNotContain(ARGS).doesNotContain(ARGS.replace("\"", "\\\""));
		assertThat(WireChecks.leaks(Exchange.of(twice, false), TRACES)).containsExactly(ARGS);
	}

	@Test
	@DisplayName("finds nothing where no trace is, as sent or decoded; finds a trace as sent")
	void noTrace() {
		String clean = "{\"choices\":[{\"message\":{\"content\":\"allow_read \\\"/etc/hosts\\\"\"}}],\"debug\":\"\\u0061llow\"}";
		assertThat(WireChecks.leaks(Exchange.of(clean, false), TRACES)).isEmpty();
		assertThat(WireChecks.leaks(Exchange.of("{\"note\":\"deny_write\"}", false), TRACES)).containsExactly("deny_write");
	}
}
