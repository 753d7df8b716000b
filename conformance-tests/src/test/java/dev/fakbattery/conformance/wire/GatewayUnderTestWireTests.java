package dev.fakbattery.conformance.wire;

import dev.fakbattery.api.WireRuleReport;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;

/**
 * The wire rules against the configured gateway under test ({@link ConfiguredWireVerification}): {@code gateway.url},
 * {@code gateway.cmd}, else the embedded reference gateway. The wire rung runs this class.
 */
@Tag("wire")
@WireRuleReport
@DisplayName("wire conformance: gateway under test")
class GatewayUnderTestWireTests extends ConfiguredWireVerification {
}
