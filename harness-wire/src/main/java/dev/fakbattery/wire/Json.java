package dev.fakbattery.wire;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one Jackson mapper of the battery: artifacts are pretty-printed, keys keep insertion order. Every JSON helper
 * builds on it: {@link WireJson} (wire text, compact, typed accessors), {@link JsonDocument} (an artifact file: object,
 * missing or unreadable), {@link JsonNumbers} (numbers into artifacts, rounded once). The two writers that are not this
 * mapper's output say why: the engine double's {@code PythonJson} ({@code json.dumps} spacing, byte for byte) and the
 * reference gateway's YAML policy reader.
 *
 * @since 0.1
 */
public final class Json {

	public static final ObjectMapper MAPPER = JsonMapper.builder()
			.enable(SerializationFeature.INDENT_OUTPUT)
			.build();

	private Json() {
	}
}
