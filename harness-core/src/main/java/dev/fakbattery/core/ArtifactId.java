package dev.fakbattery.core;

import org.apiguardian.api.API;

/**
 * The artifacts of the battery, one per rung check; the final gate reads exactly the required ones.
 * File names and schema ids are fak's where the artifact mirrors one of fak's battery artifacts.
 *
 * @since 0.1
 */
@API(status = API.Status.STABLE, since = "0.6")
public enum ArtifactId {
	RUN_CONTRACT("raw_fak_run_contract", "0 contract", "raw-vllm-vs-fak-gateway-contract.json",
			"fak.glm52-vllm-raw-fak-run-contract.v1"),
	PREFLIGHT("preflight", "1 preflight", "glm52-vllm-preflight.json", "fak.glm52-serve-preflight.v1"),
	SERVING_WITNESS("serving_witness", "2 serving witness", "full-size-serving-witness.json",
			"fak.glm52-serving-witness.v1"),
	/**
	 * The gateway's cost over the raw engine (any engine, not only vLLM). Its step id {@code vllm_tax}, file name and
	 * schema id keep fak's names: the artifact mirrors fak's {@code vllm_tax_witness.py} output and final check.
	 */
	TAX_WITNESS("vllm_tax", "3 tax", "adjudication-tax-witness.json", "fak.vllm-adjudication-tax.v1"),
	CONCURRENCY_SWEEP("concurrency_sweep", "3 tax sweep", "concurrency-sweep.json", "fak-battery.concurrency-sweep.v1"),
	SWEBENCH_COMPARE("swebench_verified_20", "4 swebench-20", "swebench-20-compare-check.json",
			"fak-battery.swebench-compare-check.v1"),
	FLOORS("floors", "5 floors", "floors-check.json", "fak-battery.floors-check.v1"),
	WIRE_CONFORMANCE("wire_conformance", "wire", "wire-conformance.json", "fak-battery.wire-conformance.v1"),
	/** The fault rules F01..F07 against the gateway under test: each rule and target with its outcome and reason. */
	FAULT_RULES("fault_rules", "faults", "fault-rules.json", "fak-battery.fault-rules.v1"),
	/**
	 * Optional: goodput against SLOs over offered request rates, raw vs gateway, and the rate each meets; the final gate
	 * does not require it.
	 */
	RATE_SWEEP("rate_sweep", "3 tax rate sweep", "rate-sweep.json", "fak-battery.rate-sweep.v1", false),
	/**
	 * Optional: the engine head-to-head, written only when {@code engine.compare} names engines; the final gate does not
	 * require it. Its id {@code engine_compare} and file name stay as archived runs carry them.
	 */
	ENGINE_HEAD_TO_HEAD("engine_compare", "engine head-to-head", "engine-compare.json", "fak-battery.engine-compare.v1", false);

	private final String id;
	private final String rung;
	private final String fileName;
	private final String schema;
	private final boolean required;

	ArtifactId(String id, String rung, String fileName, String schema) {
		this(id, rung, fileName, schema, true);
	}

	ArtifactId(String id, String rung, String fileName, String schema, boolean required) {
		this.required = required;
		this.id = id;
		this.rung = rung;
		this.fileName = fileName;
		this.schema = schema;
	}

	/** The step id in final-check.json. */
	public String id() {
		return id;
	}

	/** The rung label shown in the summary table. */
	public String rung() {
		return rung;
	}

	public String fileName() {
		return fileName;
	}

	public String schema() {
		return schema;
	}

	/**
	 * fak's own summary field that holds this artifact's verdict ({@code vllm_adjudication_tax_witness},
	 * {@code full_size_serving_witness}), written from the computed verdict; empty where fak has none.
	 */
	public java.util.Optional<String> seedSummaryKey() {
		return switch (this) {
			case TAX_WITNESS -> java.util.Optional.of("vllm_adjudication_tax_witness");
			case SERVING_WITNESS -> java.util.Optional.of("full_size_serving_witness");
			default -> java.util.Optional.empty();
		};
	}

	/** Whether the final gate requires this artifact. */
	public boolean required() {
		return required;
	}

	/** The artifacts the final gate requires, in rung order. */
	public static java.util.List<ArtifactId> requiredArtifacts() {
		return java.util.Arrays.stream(values()).filter(ArtifactId::required).toList();
	}
}
