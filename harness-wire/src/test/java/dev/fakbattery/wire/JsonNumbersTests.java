package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("JsonNumbers")
class JsonNumbersTests {

	@Test
	@DisplayName("rounds like Python's round(): half-even on the exact binary value")
	void roundsLikePython() {
		assertThat(JsonNumbers.round(2.675, 2)).isEqualTo(2.67);
		assertThat(JsonNumbers.round(1.12345, 4)).isEqualTo(1.1235);
		assertThat(JsonNumbers.round(1.00005, 4)).isEqualTo(1.0001);
		assertThat(JsonNumbers.round(0.5, 0)).isEqualTo(0.0);
		assertThat(JsonNumbers.round(1.5, 0)).isEqualTo(2.0);
	}

	@Test
	@DisplayName("NaN and infinity are written as null")
	void unknownIsNull() {
		ObjectNode node = Json.MAPPER.createObjectNode();
		JsonNumbers.put(node, "a", Double.NaN, 4);
		JsonNumbers.put(node, "b", Double.POSITIVE_INFINITY);

		assertThat(node.get("a").isNull()).isTrue();
		assertThat(node.get("b").isNull()).isTrue();
	}
}
