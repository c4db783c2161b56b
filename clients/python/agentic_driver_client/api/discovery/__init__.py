# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
"""Contains endpoint functions for accessing the API"""
