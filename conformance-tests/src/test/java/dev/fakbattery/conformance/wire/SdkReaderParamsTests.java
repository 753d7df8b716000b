package dev.fakbattery.conformance.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.databind.node.ObjectNode;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * W19 hands the SDK params read once per request shape, with the user texts put back ({@link SdkReader#params}): for
 * every request the kit sends, they equal what the SDK reads from the whole body, nonce and all; and the comparison
 * sees a text that was not put back.
 */
@DisplayName("SDK params per request shape: equal to the SDK's own reading of each request")
class SdkReaderParamsTests {

	@Test
	@DisplayName("every scenario, both modes, with and without offered tools, two nonces each: the same params as a full read")
	void sameAsFullRead() {
		List<ObjectNode> requests = new ArrayList<>();
		for (Scenario scenario : Scenario.values()) {
			for (boolean stream : List.of(false, true)) {
				for (int i = 0; i < 2; i++) {
					String nonce = UUID.randomUUID().toString();
					requests.add(WireConformanceKit.request(scenario.marker(), nonce, stream));
					requests.add(WireConformanceKit.request(scenario.marker(), nonce, stream, List.of("get_weather", "search")));
				}
			}
		}
		for (ObjectNode request : requests) {
			ObjectNode body = request.deepCopy();
			body.remove("stream");
			assertThat(SdkReader.params(request)._body()).as(request.toString()).isEqualTo(SdkReader.sdkBody(body));
		}
	}

	@Test
	@DisplayName("a request whose text differs (another nonce) reads as different params: the comparison can fail")
	void otherNonceDiffers() {
		ObjectNode first = WireConformanceKit.request(Scenario.values()[0].marker(), "nonce-one", false);
		ObjectNode second = WireConformanceKit.request(Scenario.values()[0].marker(), "nonce-two", false);
		second.remove("stream");
		assertThat(SdkReader.params(first)._body()).isNotEqualTo(SdkReader.sdkBody(second));
	}
}
