"""The RLlib tests run in their own venv (.venv-rllib: ray[rllib] pins gymnasium==1.2.2);
`make test` runs them there. Without ray they are not collected (tests/conftest.py)."""
