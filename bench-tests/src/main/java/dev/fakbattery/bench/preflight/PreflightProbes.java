package dev.fakbattery.bench.preflight;

import java.net.URI;

/**
 * The probes the preflight reads a node with. Tests inject recorded outputs; a serving node uses
 * {@link SystemPreflightProbes}.
 *
 * @since 0.1
 */
public interface PreflightProbes {

	/** The GPUs, from {@link NvidiaSmi#QUERY_COMMAND}. */
	NvidiaSmiReading nvidiaSmi();

	/** Whether {@code engine} imports, from {@link EngineProbe#command(String, String)}. */
	EngineProbe engineImport(String engine);

	/** {@code GET <v1Base>/models}: the served names and their {@code max_model_len}. */
	ServedModels models(URI v1Base);

	/** {@code GET <root>/version}, where root is {@code v1Base} without {@code /v1}. */
	EngineVersionInfo version(URI v1Base);
}
