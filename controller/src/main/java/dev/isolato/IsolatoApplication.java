package dev.isolato;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Entry point of the Isolato controller: REST API, reconcilers and models in one service. */
@SpringBootApplication
public class IsolatoApplication {
  public static void main(String[] args) {
    SpringApplication.run(IsolatoApplication.class, args);
  }
}
