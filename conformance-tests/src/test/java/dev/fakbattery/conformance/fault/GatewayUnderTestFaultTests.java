package dev.fakbattery.conformance.fault;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The fault rules against the configured gateway under test ({@link ConfiguredFaultVerification}): {@code gateway.url},
 * {@code gateway.cmd}, else the embedded reference gateway. {@link FaultRungTests} runs this class inside the fault
 * rung.
 */
@Tag("fault")
@DisplayName("fault rules: gateway under test")
@Isolated
class GatewayUnderTestFaultTests extends ConfiguredFaultVerification {
}
