package dev.fakbattery.conformance.fault;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The kit's excuses, alone. F01's for a late cancel: the kit's own stall must be at least as long as the cancel was
 * late; the end to end failure (a gateway a second late on a quiet machine) is {@link BrokenFaultGatewayTests#cancelsLate}.
 * F04's and F03's for an upstream timeout: only a 504, and only after a stall of 8/10 of the gateway's upstream timeout; any other
 * answer is judged as it is.
 */
@DisplayName("F01, F03, F04: a wrong answer is the kit's doing only when the kit stalled long enough to cause it")
class CancelJudgementTests {

	@ParameterizedTest(name = "cancelled after {0} ms, kit stalled {1} ms: explained {2}")
	@CsvSource({ "1002, 3, false", "881, 700, true", "881, 680, false", "881, 681, true", "400, 199, false", "400, 200, true" })
	void explainedByKitStall(long millis, long stall, boolean explained) {
		assertThat(FaultVerification.explainedByKitStall(millis, stall)).isEqualTo(explained);
	}

	@ParameterizedTest(name = "status {0} after a kit stall of {1} ms, upstream timeout 2000 ms: explained {2}")
	@CsvSource({ "504, 2663, true", "504, 1600, true", "504, 1599, false", "504, 3, false", "502, 2663, false",
		"200, 5000, false" })
	void timeoutExplainedByKitStall(int status, long stall, boolean explained) {
		FaultClient.Answer answer = new FaultClient.Answer(status, "application/json", "{}", null, 2663);
		assertThat(FaultVerification.timeoutExplainedByKitStall(answer, java.time.Duration.ofSeconds(2), stall)).isEqualTo(explained);
	}
}
