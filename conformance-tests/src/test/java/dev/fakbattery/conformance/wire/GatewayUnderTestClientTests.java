package dev.fakbattery.conformance.wire;

import dev.fakbattery.api.WireRuleReport;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;

/**
 * The client rules against the configured gateway under test ({@link ConfiguredClientVerification}): {@code gateway.url},
 * {@code gateway.cmd}, else the embedded reference gateway. The wire rung runs this class; in the battery report each
 * client rule is a feature of the wire conformance epic, as each wire rule is.
 */
@Tag("wire")
@WireRuleReport
@DisplayName("client rules: gateway under test")
class GatewayUnderTestClientTests extends ConfiguredClientVerification {
}
