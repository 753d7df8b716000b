package dev.fakbattery.gateway;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A test class that talks HTTP to the gateway runs once per {@link HttpFront}, in one JVM, its constructor taking the
 * front: the same tests, whichever server parses HTTP (they were three surefire executions, three JVMs one after the
 * other, before).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedClass(name = "front {0}")
@EnumSource(HttpFront.class)
@interface EveryFront {
}
