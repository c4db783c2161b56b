# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
"""Contains methods for accessing the API"""
