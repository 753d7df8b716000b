package dev.fakbattery.conformance.wire;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;

/**
 * The client rules against the configured gateway under test ({@link ConfiguredClientVerification}): {@code gateway.url},
 * {@code gateway.cmd}, else the embedded reference gateway.
 */
@Tag("wire")
@DisplayName("client rules: gateway under test")
class GatewayUnderTestClientTests extends ConfiguredClientVerification {
}
