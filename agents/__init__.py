"""Bots for Space Mission (installed as ``spacemission_agents``; the folder is ``agents/``).

Every agent implements the opponent protocol of ``spacemission_env.policies``.
"""
