"""The bundled demo: a small multi-site web server on 127.0.0.1 that the learner can study."""
