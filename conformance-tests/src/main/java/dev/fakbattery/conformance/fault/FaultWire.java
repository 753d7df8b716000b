package dev.fakbattery.conformance.fault;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.conformance.wire.KitFixtures;
import dev.fakbattery.wire.Dialect;
import dev.fakbattery.wire.WireJson;

/**
 * One engine dialect's answers as the fault upstream sends them, built from the recorded wire in
 * {@code fixtures/wire}: the text stream's role chunk, its content chunk with other text, its tail (finish chunk,
 * usage, {@code [DONE]}), the whole text answer, and the kit's allowed tool call cut inside its arguments.
 */
final class FaultWire {

	private final Dialect engine;

	private final List<String> text;

	private final ObjectNode contentTemplate;

	FaultWire(Dialect engine) {
		this.engine = engine;
		this.text = events(read(engine + "/chat-text.sse"));
		this.contentTemplate = WireJson.readObject(data(text.get(1)));
	}

	Dialect engine() {
		return engine;
	}

	/** The first event of the text stream: the role chunk. */
	String roleEvent() {
		return text.get(0);
	}

	/** A content chunk of this dialect carrying {@code content}. */
	String contentEvent(String content) {
		ObjectNode chunk = contentTemplate.deepCopy();
		((ObjectNode) chunk.withArray("choices").get(0).get("delta")).put("content", content);
		return "data: " + WireJson.write(chunk) + "\n\n";
	}

	/** The text stream from its finish chunk on: the finish chunk, usage if any, {@code [DONE]}. */
	List<String> tailEvents() {
		for (int i = 1; i < text.size(); i++) {
			if (data(text.get(i)).contains("\"finish_reason\":\"")) {
				return text.subList(i, text.size());
			}
		}
		throw new IllegalStateException("no finish chunk in " + engine + "/chat-text.sse");
	}

	/** The whole non-stream text answer. */
	byte[] textAnswer() {
		return read(engine + "/chat-text.json").getBytes(StandardCharsets.UTF_8);
	}

	/** The models list. */
	byte[] models() {
		return read(engine + "/models.json").getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * The kit's tool call, renamed {@link #cutToolName()}, streamed until just inside its first argument fragment: no
	 * call is complete, and the call is one the gateway must hold whole.
	 */
	List<String> toolCallCut() {
		List<String> out = new ArrayList<>();
		for (String event : events(read("kit/" + engine + "/tool-call-allow.sse"))) {
			out.add(event.replace("\"" + toolName() + "\"", "\"" + cutToolName() + "\""));
			if (event.matches("(?s).*\"arguments\":\"[^\"\\\\].*") || event.matches("(?s).*\"arguments\":\"\\\\\".*")) {
				return out;
			}
		}
		throw new IllegalStateException("no argument fragment in kit/" + engine + "/tool-call-allow.sse");
	}

	/** The kit's tool call, renamed {@link #cutToolName()}, as a whole answer (to be cut). */
	byte[] toolCallAnswer() {
		return read("kit/" + engine + "/tool-call-allow.json").replace("\"" + toolName() + "\"", "\"" + cutToolName() + "\"")
				.getBytes(StandardCharsets.UTF_8);
	}

	/** The allowed call's name. */
	static String toolName() {
		return "allow_read";
	}

	/**
	 * The cut call's name: a transform, whose arguments the kit's policy rewrites, so an adjudicating gateway holds it
	 * until it is complete and not one byte of it may reach the client from a cut answer. (An allowed call may stream
	 * through as it arrives; its deltas sent before the cut are the engine's own bytes.)
	 */
	static String cutToolName() {
		return "transform_read";
	}

	private static List<String> events(String sse) {
		return Arrays.stream(sse.split("\n\n")).filter(e -> !e.isBlank()).map(e -> e.strip() + "\n\n").toList();
	}

	private static String data(String event) {
		return event.strip().substring("data: ".length());
	}

	private static String read(String relative) {
		return KitFixtures.read(relative);
	}
}
