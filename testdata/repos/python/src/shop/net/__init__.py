from .client import *
