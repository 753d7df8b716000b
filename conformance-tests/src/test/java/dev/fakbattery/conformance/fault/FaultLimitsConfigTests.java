package dev.fakbattery.conformance.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.HarnessConstants;
import dev.fakbattery.wire.spi.GatewayLimits;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The limits of a gateway that does not declare its own come from configuration: all four names, or none. */
@DisplayName("fault rules: a gateway's limits from configuration")
class FaultLimitsConfigTests {

	@Test
	@DisplayName("all four names give the limits")
	void allFour() {
		HarnessConfig config = config(Map.of(HarnessConstants.GATEWAY_UPSTREAM_TIMEOUT_MS, "2500", HarnessConstants.GATEWAY_MAX_BODY_BYTES,
				"1048576", HarnessConstants.GATEWAY_MAX_HEADER_BYTES, "16384", HarnessConstants.GATEWAY_MAX_EVENT_BYTES, "65536"));

		assertThat(GatewayUnderTestFaultTests.configured(config))
				.contains(new GatewayLimits(Duration.ofMillis(2500), 1048576, 16384, 65536));
	}

	@Test
	@DisplayName("a missing name gives none, and the limit rules are PENDING_MEASUREMENT naming all four")
	void oneMissing() {
		HarnessConfig config = config(Map.of(HarnessConstants.GATEWAY_UPSTREAM_TIMEOUT_MS, "2500", HarnessConstants.GATEWAY_MAX_BODY_BYTES,
				"1048576", HarnessConstants.GATEWAY_MAX_HEADER_BYTES, "16384"));

		assertThat(GatewayUnderTestFaultTests.configured(config)).isEmpty();
	}

	@Test
	@DisplayName("a bad value names the parameter, the value and the fix")
	void badValue() {
		HarnessConfig config = config(Map.of(HarnessConstants.GATEWAY_UPSTREAM_TIMEOUT_MS, "soon", HarnessConstants.GATEWAY_MAX_BODY_BYTES,
				"1048576", HarnessConstants.GATEWAY_MAX_HEADER_BYTES, "16384", HarnessConstants.GATEWAY_MAX_EVENT_BYTES, "65536"));

		assertThatThrownBy(() -> GatewayUnderTestFaultTests.configured(config))
				.hasMessageStartingWith("Unable to parse gateway.upstream.timeout.ms value [soon]");
	}

	private static HarnessConfig config(Map<String, String> values) {
		return HarnessConfig.of(name -> Optional.ofNullable(values.get(name)));
	}
}
