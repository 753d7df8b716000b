package dev.fakbattery.conformance.fault;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * F01's excuse for a late cancel, alone: the kit's own stall must be at least as long as the cancel was late. The end
 * to end failure (a gateway a second late on a quiet machine) is {@link BrokenFaultGatewayTests#cancelsLate}.
 */
@DisplayName("F01: a late cancel is the kit's doing only when the kit stalled as long as the cancel was late")
class CancelJudgementTests {

	@ParameterizedTest(name = "cancelled after {0} ms, kit stalled {1} ms: explained {2}")
	@CsvSource({ "1002, 3, false", "881, 700, true", "881, 680, false", "881, 681, true", "400, 199, false", "400, 200, true" })
	void explainedByKitStall(long millis, long stall, boolean explained) {
		assertThat(FaultVerification.explainedByKitStall(millis, stall)).isEqualTo(explained);
	}
}
