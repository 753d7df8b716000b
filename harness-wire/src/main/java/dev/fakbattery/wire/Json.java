package dev.fakbattery.wire;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one Jackson mapper of the battery: artifacts are pretty-printed, keys keep insertion order.
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
