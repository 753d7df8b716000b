/**
 * The raw engine a rung measures: {@code base.url}, else a command the harness starts
 * ({@code -Dengine.cmd="llama-server ... --port {port} -a {model}"}, {@link dev.fakbattery.bench.container.EngineCommands}),
 * else a container: {@code -Dengine.image=vllm/vllm-openai:v0.11.0} starts vLLM (or
 * SGLang with {@code -Dengine=sglang}) on all GPUs with Testcontainers, once per JVM, and the rungs
 * measure it through {@link dev.fakbattery.bench.container.NodeTarget#baseUrl(dev.fakbattery.core.RungRecorder)};
 * {@code -Dengine=llamacpp} starts a llama.cpp image on the CPU, which
 * {@link dev.fakbattery.bench.container.LlamaCppImage} builds locally ({@link dev.fakbattery.bench.container.RootfsImage},
 * {@code FROM scratch}, no pull) for {@code -Pllamacpp,container}.
 *
 * <p>{@link dev.fakbattery.bench.container.EngineContainerSpec} is the container as a plain value
 * (unit tested without Docker or a GPU); {@link dev.fakbattery.bench.container.EngineContainers}
 * starts, shares and stops it and turns "no Docker" into a skip, or a failure under
 * {@code -Pgpu}.
 *
 * @since 0.1
 */
package dev.fakbattery.bench.container;
